/** The kinds of upstream a channel can point at. Each has one adapter in `channels/channel-registry.ts`. */
export const CHANNEL_KINDS = ['openai', 'anthropic', 'gemini', 'azure', 'vertex', 'bedrock', 'cohere', 'jina'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export function isChannelKind(value: unknown): value is ChannelKind {
  return typeof value === 'string' && (CHANNEL_KINDS as readonly string[]).includes(value);
}
