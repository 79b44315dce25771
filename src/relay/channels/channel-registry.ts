import type { ChannelAdapter } from './channel-adapter.ts';
import type { ChannelKind } from '../../domain/channel-kind.ts';
import { anthropicChannel } from './anthropic-channel.ts';
import { azureChannel } from './azure-channel.ts';
import { bedrockChannel } from './bedrock-channel.ts';
import { geminiChannel } from './gemini-channel.ts';
import { openaiChannel } from './openai-channel.ts';
import { vertexChannel } from './vertex-channel.ts';
import { cohereChannel } from './cohere-channel.ts';
import { jinaChannel } from './jina-channel.ts';

/** The only place a channel kind is registered. */
const ADAPTERS: Record<ChannelKind, ChannelAdapter> = {
  openai: openaiChannel,
  anthropic: anthropicChannel,
  gemini: geminiChannel,
  azure: azureChannel,
  vertex: vertexChannel,
  bedrock: bedrockChannel,
  cohere: cohereChannel,
  jina: jinaChannel,
};

export function getChannelAdapter(kind: ChannelKind): ChannelAdapter {
  return ADAPTERS[kind];
}
