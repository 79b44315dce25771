import type { ChatRequest } from '../core/chat-request.ts';
import type { PhaseTiming } from '../core/phase-timing.ts';
import type { Usage } from '../core/usage.ts';
import type { Warning } from '../core/warning.ts';
import type { Channel } from '../domain/channel.ts';
import type { ProtocolId, StreamEncoderOptions, UpstreamProtocolId } from '../protocols/protocol-codec.ts';
import type { ClientWriter } from './client-writer.ts';

/** One request for the relay: the client's body, the candidate channels and the reply's writer. */
export interface RelayInput {
  requestId: string;
  clientProtocol: ProtocolId;
  body: Record<string, unknown>;
  /** The body's JSON text as received; the passthrough lane forwards it when nothing changes. */
  rawBody?: string;
  /**
   * The client request decoded, shared with the admission (decoded at most once, on first
   * need: passthrough attempts never need it). Throws the client's GatewayError when the body
   * cannot be decoded.
   */
  decodeClientRequest: () => { request: ChatRequest; warnings: Warning[] };
  stream: boolean;
  /** The client's stream framing and whether it asked for usage (from the codec's peek). */
  encoderOptions: StreamEncoderOptions;
  publicModel: string;
  /** Candidate channels in attempt order. */
  channels: readonly Channel[];
  forwardedHeaders: Record<string, string>;
  /** Headers every reply carries (request id, …). */
  replyHeaders: Record<string, string>;
  /** Warnings the request carries from before the relay (its route's, then declared tools left out), first in the reply's list. */
  warnings?: readonly string[];
  /** The client's reply; `writer.clientGone` tells whether the client left before it ended. */
  writer: ClientWriter;
  /**
   * The request's one AbortController, whose signal every upstream call of the request follows:
   * aborted when the client goes away (by whoever took the reply over), and by the relay at the
   * total deadline or when it abandons a malformed stream. An attempt the race may have to stop
   * alone (a hedge, or one another candidate may replace) gets its own controller under it.
   */
  controller: AbortController;
  /** Whose reasoning cache entries this request may see (the API key id). */
  reasoningScope?: string;
  /** Set when the caller asked for a `Server-Timing` header: the relay marks its phases on it. */
  timing?: PhaseTiming;
  /**
   * Use only this upstream key (index into the channel's keys): the request continues a
   * conversation the upstream keeps under that key. `channels` then holds that one channel.
   */
  pinnedKeyIndex?: number;
  /**
   * Conversation affinity: the upstream key of this channel that served the conversation's
   * previous turn (its prompt cache is there). Preferred while its circuit admits traffic; the
   * channel itself is put first in `channels` by the pipeline.
   */
  preferredKey?: { channelId: string; keyIndex: number };
  /**
   * What a plain reply costs its payer (micro-USD), from the upstream's usage and the characters
   * delivered, exactly as the request will be billed: sent as `x-switchyard-cost` (and as
   * `usage.cost` when `reportCost`). Absent: no cost is shown.
   */
  quoteCost?: (usage: Usage | undefined, deliveredChars: number) => number;
  /** The client asked for the cost in the reply's usage (OpenRouter's `usage: {"include": true}`). */
  reportCost?: boolean;
  /** Put sealed reasoning state in a Responses reply even without `include` (the turn is kept for replay). */
  carryReasoning?: boolean;
  /**
   * Told once a stream is open: its channel and a way to read what it has delivered so far
   * (read at the caller's pace, never per chunk), so the pipeline can keep progress that another
   * instance bills from should this one die mid-stream.
   */
  watchStream?: (stream: WatchedStream) => void;
  /** Told which channel, key and lane the reply comes from, before its first byte is written. */
  onCommit?: (commit: RelayCommit) => void;
  /**
   * Called once a stream is committed (its headers written): no attempt can need the client's
   * request again, so its owner may let go of the body (this input's `body` and `rawBody` too).
   */
  releaseRequest?: () => void;
}

/** An open stream, as `watchStream` sees it. */
export interface WatchedStream {
  channel: Channel;
  upstreamModel: string;
  upstreamProtocol: UpstreamProtocolId;
  /** The upstream's usage so far and the characters delivered so far (as the stream's outcome would say now). */
  progress(): { usage: Usage | undefined; deliveredChars: number };
}

/** The attempt the relay committed to. `apiKey` is the upstream secret: keep it in memory only. */
export interface RelayCommit {
  channel: Channel;
  keyIndex: number;
  apiKey: string;
  passthrough: boolean;
  protocol: UpstreamProtocolId;
}
