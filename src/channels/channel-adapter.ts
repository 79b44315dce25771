import type { ProtocolId } from '../protocols/protocol-codec.ts';
import type { Channel } from '../domain/channel.ts';
import type { ChannelKind } from '../domain/channel-kind.ts';

/** Where and how to send one upstream request. */
export interface UpstreamTarget {
  url: string;
  headers: Record<string, string>;
}

export interface BuildRequestInput {
  channel: Channel;
  /** The upstream secret chosen for this attempt. */
  apiKey: string;
  protocol: ProtocolId;
  upstreamModel: string;
  stream: boolean;
  /** Client headers a same-protocol upstream should see unchanged (e.g. `anthropic-beta`). */
  forwardedHeaders: Record<string, string>;
}

/**
 * A kind of upstream: how to reach it. Deliberately small — what the wire looks like is the
 * protocol codec's business; a new kind is one file plus one line in `channel-registry.ts`.
 */
export interface ChannelAdapter {
  readonly kind: ChannelKind;
  /** The protocols this kind speaks, best first. */
  readonly protocols: readonly ProtocolId[];
  /** Which protocol to use for a request that arrived in `clientProtocol`. */
  selectProtocol(channel: Channel, clientProtocol: ProtocolId): ProtocolId;
  buildRequest(input: BuildRequestInput): UpstreamTarget;
  /** The cheapest request that proves the channel works (for channel tests and health checks). */
  buildProbe?(model: string): Record<string, unknown>;
}

/** Joins a base address and a path without doubling or dropping the slash. */
export function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.endsWith('/') ? `${baseUrl.slice(0, -1)}${path}` : `${baseUrl}${path}`;
}
