import type { ChannelAdapter } from './channel-adapter.ts';
import type { ChannelKind } from '../domain/channel-kind.ts';
import { anthropicChannel } from './anthropic-channel.ts';
import { geminiChannel } from './gemini-channel.ts';
import { openaiChannel } from './openai-channel.ts';

/** The only place a channel kind is registered. */
const ADAPTERS: Record<ChannelKind, ChannelAdapter> = {
  openai: openaiChannel,
  anthropic: anthropicChannel,
  gemini: geminiChannel,
};

export function getChannelAdapter(kind: ChannelKind): ChannelAdapter {
  return ADAPTERS[kind];
}
