import type { AssistantContentPart, ChatRequest } from '../core/chat-request.ts';
import type { ChatResponse } from '../core/chat-response.ts';
import type { GatewayError } from '../core/gateway-error.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { StreamEvent } from '../core/stream-event.ts';
import type { Usage } from '../core/usage.ts';
import type { Warning } from '../core/warning.ts';
import type { ReasoningSlot, ReasoningState } from '../core/reasoning-state.ts';
import type { SseMessage } from './sse/sse-message.ts';
import type { InvalidField } from './shared/find-invalid-count.ts';

/** The wire formats client surfaces speak; the type and the runtime check both come from this list. */
export const CLIENT_PROTOCOL_IDS = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini-generate-content'] as const;

/** A wire format. A channel kind says which of these it speaks; a client surface decodes one. */
export type ProtocolId = (typeof CLIENT_PROTOCOL_IDS)[number];

/** Wire formats the gateway only sends upstream (no client surface speaks them). */
export type UpstreamOnlyProtocolId = 'bedrock-converse';

/** Every wire format a channel can speak. */
export type UpstreamProtocolId = ProtocolId | UpstreamOnlyProtocolId;

export interface Decoded<T> {
  value: T;
  warnings: Warning[];
}

/**
 * What arrived from a client: the parsed JSON body plus what some protocols carry outside it
 * (Gemini puts the model and the streaming choice in the URL path).
 */
export interface ClientRequestInput {
  body: unknown;
  pathModel?: string;
  pathStream?: boolean;
}

/** What to send upstream: the body plus the model name and stream flag the URL may need. */
export interface UpstreamRequestOutput {
  body: Record<string, unknown>;
  model: string;
  stream: boolean;
}

/** Turns upstream SSE messages into canonical events; per-stream state lives in its closure. */
export interface StreamDecoder {
  push(message: SseMessage): StreamEvent[];
  /** The upstream closed its stream; emits whatever must close open blocks (or an error). */
  end(): StreamEvent[];
}

/** Turns canonical events into the client's wire bytes (already framed, ready to write). */
export interface StreamEncoder {
  push(event: StreamEvent): string;
  /** Whatever the protocol writes after the last event (OpenAI `[DONE]`, a closing `]`). */
  end(): string;
}

export interface StreamEncoderOptions {
  /** OpenAI chat: the client asked for `stream_options.include_usage`. */
  includeUsage?: boolean;
  /**
   * OpenAI chat: the client asked for the cost (OpenRouter's `usage: {"include": true}`); the
   * final usage chunk carries `usage.cost`, in USD, of the usage given (and the characters
   * delivered, when the lane counts them). The gateway's billing answers; codecs only write it.
   */
  priceUsage?: (usage: Usage, deliveredChars: number | undefined) => number;
  /** Gemini: `alt=sse` (default) or a streamed JSON array. */
  format?: 'sse' | 'json-array';
  /** OpenAI Responses: tools the client declared freeform (`type: "custom"`); their calls go back as custom tool calls. */
  customTools?: readonly string[];
  /**
   * OpenAI Responses: the request's state, echoed in the response object as OpenAI does: `store`
   * (true when the gateway keeps the turn) and `previous_response_id`. Absent: `false` and `null`.
   */
  responseState?: ResponseStateEcho;
  /**
   * OpenAI Responses: output items the gateway placed before the model's (the compaction item of
   * a turn it compacted for `context_management`), streamed right after `response.in_progress`.
   */
  leadingItems?: readonly Record<string, unknown>[];
}

export interface ResponseStateEcho {
  store: boolean;
  previousResponseId: string | null;
}

/**
 * Watches a same-protocol stream without decoding every event, to meter usage on the
 * passthrough lane. It sees each SSE message and returns the usage once the stream ends.
 */
export interface UsageTap {
  observe(message: SseMessage): void;
  usage(): Usage | undefined;
}

/**
 * What the gateway reads from a client body before (and instead of) decoding it: enough to
 * authorise, route and meter. Tolerant: a missing or mistyped field is simply absent.
 */
export interface RequestPeek {
  /** The model the client named (Gemini: in the path); undefined when absent or not a string. */
  model: string | undefined;
  stream: boolean;
  /**
   * The client's stream should carry usage: OpenAI chat only when it asked
   * (`stream_options.include_usage`); the other protocols always report it.
   */
  includeUsage: boolean;
  /**
   * The field that carries the conversation (`messages`, `contents`, `input`) when the body
   * lacks it, so the request is refused before any upstream call; undefined when present.
   */
  missingField: string | undefined;
  /**
   * A field whose value the protocol refuses (an output cap or a number of alternatives below 1
   * or not a whole number), so the request is refused before any upstream call on either lane.
   */
  invalidField?: InvalidField;
  /** OpenAI Responses: the names of the client's custom (freeform) tools, when it declared any. */
  customTools?: readonly string[];
  /**
   * Fields that ask the provider for something the price table does not charge (server tools,
   * priority processing, work left running upstream) or that reach the upstream account's own
   * objects (stored prompts, vector stores, containers, conversations); absent when there are
   * none. The codec only names them; whether the caller may use them is policy
   * (`src/access/check-provider-features.ts`).
   */
  providerFeatures?: readonly ProviderFeature[];
}

/** What a provider feature costs or reaches; the classes a group may be allowed, plus `background`, which none is. */
export type ProviderFeatureKind = 'background' | 'server-tools' | 'stored-objects' | 'priority-tier';

/** One provider feature a request asks for, where the client asked for it. */
export interface ProviderFeature {
  kind: ProviderFeatureKind;
  /** The field as the client wrote it: `background`, `service_tier`, `tools[2]`, `mcp_servers`. */
  field: string;
  /** What it is, for the refusal and the price: `web_search`, `code_interpreter`, `priority`, `prompt`. */
  name: string;
  /**
   * A tool the client declared (`tools[toolIndex]`), which can be left out of the request rather
   * than refused: a client offers it to the model, which may never call it. `toolKey`: the
   * tool's own property to remove (Gemini puts several tools in one entry), or the whole entry.
   */
  tool?: { index: number; key?: string };
}

/**
 * What a client request says about the conversation it belongs to, so later turns can stay on
 * the channel and upstream key whose prompt cache holds it. Raw material only: the router hashes
 * it (codecs do no crypto) and scopes it to the API key. Read only when affinity is on.
 */
export interface AffinityHint {
  /**
   * Names the whole conversation, best first (OpenAI `prompt_cache_key` / `user`, Anthropic
   * `metadata.user_id`, Gemini `cachedContent`): looked up and recorded at every turn.
   */
  conversationKeys: string[];
  /**
   * Prompt caching by prefix (Anthropic `cache_control`): the cacheable content as blocks in the
   * provider's cache order (tools, system, messages), each serialised without its breakpoint
   * marker so a breakpoint that moves does not change the content, and the indexes of the blocks
   * that carry a breakpoint (ascending). A turn continues whichever earlier turn's prefix it
   * starts with.
   */
  cachePrefix?: { blocks: string[]; breakpoints: number[] };
  /**
   * The protocol chains turns by response id (OpenAI Responses): `previous` is the id this turn
   * continues, when it names one; the turn itself is recorded under its own response id.
   */
  responseChain?: { previous: string | undefined };
}

export interface PassthroughBodyInput {
  body: Record<string, unknown>;
  /** The body's JSON text as received, forwarded as is when nothing in it changes. */
  rawBody?: string;
  upstreamModel: string;
  stream: boolean;
}

/** What one upstream event of a same-protocol stream means to the relay. */
export type PassthroughMark = 'end' | 'error' | 'malformed' | undefined;

/**
 * One same-protocol stream on its way to the client, event by event. The relay cuts the
 * upstream's bytes at event boundaries and forwards them as they are whenever it can; this
 * says what each event means (metering, end, error) and frames events when the client's
 * framing differs or an event must not reach it.
 */
export interface PassthroughStream {
  /** Reads one complete upstream event: taps usage, counts delivered text, spots the end. */
  observe(message: SseMessage): PassthroughMark;
  /** False when this event cannot go to the client as the upstream's own bytes. */
  forwardsAsIs(message: SseMessage): boolean;
  /** The client's bytes for one event ('' hides it). */
  frame(message: SseMessage): string;
  /** What closes a stream that ended properly. */
  end(): string;
  /** An in-stream error in the client's framing, closing the stream. */
  error(error: GatewayError): string;
  usage(): Usage | undefined;
  /** Characters of text and tool arguments seen so far (billing for a stream cut short). */
  readonly deliveredChars: number;
}

/** The passthrough lane of one protocol: its client's JSON and stream, relayed without decoding. */
export interface PassthroughLane {
  /** The upstream body: the client's JSON with the model and usage options rewritten as needed. */
  upstreamBody(input: PassthroughBodyInput): string;
  openStream(context: RuntimeContext, options: StreamEncoderOptions): PassthroughStream;
  /** Sent to this protocol's clients after upstream silence (either lane); undefined when none is safe. */
  readonly keepAliveFrame: string | undefined;
}

export interface ErrorBody {
  status: number;
  body: unknown;
}

/**
 * A pure codec for one wire format: both directions for requests, responses, streams and
 * errors. No I/O, no clock, no randomness (they come from `RuntimeContext`).
 * Decoders are tolerant readers and throw `GatewayError('invalid_request')` naming the field
 * when a body cannot be understood; encoders are strict writers built from typed literals.
 */
/**
 * Where a client of a protocol carries its key (the headers themselves: access/extract-api-key.ts):
 * `bearer` in `Authorization: Bearer` only; `anthropic` in `x-api-key`, or Bearer; `gemini` in
 * `x-goog-api-key` or `?key=`, or Bearer.
 */
export type CredentialStyle = 'bearer' | 'anthropic' | 'gemini';

export interface ProtocolCodec {
  readonly id: UpstreamProtocolId;
  /** Client protocols: where the caller's key travels (an upstream-only codec has none). */
  readonly credentials?: CredentialStyle;
  /** Reads model, stream and include-usage from a client body without decoding it. */
  peek(input: ClientRequestInput): RequestPeek;
  /** Reads what names the request's conversation (conversation affinity); client protocols only. */
  affinityHint?(input: ClientRequestInput): AffinityHint | undefined;
  /**
   * Whether this client asked to be handed reasoning state it can send back (sealed by the gateway
   * when another protocol answered). Absent: always (every reply of the protocol has the slot).
   * OpenAI Responses: only with `include: ["reasoning.encrypted_content"]`.
   */
  asksForReasoningState?(body: Record<string, unknown>): boolean;
  /** Client protocols: the opaque slot a reply carries reasoning state back to this client in (sealed when another protocol answered). */
  readonly reasoningSlot?: ReasoningSlot;
  /**
   * Upstreams that issue reasoning state: reads and removes it from a canonical part (only the
   * protocol's own fields). Absent: the protocol takes none back (Chat Completions).
   */
  takeReasoningState?(part: AssistantContentPart): ReasoningState | undefined;
  readonly passthrough: PassthroughLane;
  decodeRequest(input: ClientRequestInput, context: RuntimeContext): Decoded<ChatRequest>;
  encodeRequest(request: ChatRequest, context: RuntimeContext): Decoded<UpstreamRequestOutput>;
  /**
   * The upstream's last rule on an encoded translated request, applied by the relay after the
   * reasoning stage restored what it could (Anthropic and Claude on Bedrock refuse a tool loop
   * whose assistant turn lacks its signed thinking: thinking is turned off, with a warning).
   * Absent: the encoded body goes as it is.
   */
  enforceOnEncoded?(body: Record<string, unknown>, warnings: Warning[]): void;
  decodeResponse(body: unknown, context: RuntimeContext): Decoded<ChatResponse>;
  /** `options`: what the client asked of the reply (the same as its stream encoder's). */
  encodeResponse(response: ChatResponse, context: RuntimeContext, options?: StreamEncoderOptions): unknown;
  createStreamDecoder(context: RuntimeContext): StreamDecoder;
  createStreamEncoder(context: RuntimeContext, options?: StreamEncoderOptions): StreamEncoder;
  createUsageTap(): UsageTap;
  /** Renders a gateway error in this protocol's error shape. */
  /** `requestId` undefined: the message does not quote it (a consumer-facing page; the `x-request-id` header still has it). */
  encodeError(error: GatewayError, requestId: string | undefined): ErrorBody;
  /** Reads an upstream error body of this protocol into a message and type, tolerating junk. */
  decodeError(status: number, body: unknown): { message: string; type?: string };
}
