import type { ProviderMetadata } from './provider-metadata.ts';
import type { FinishReason } from './finish-reason.ts';
import type { Usage } from './usage.ts';
import type { GatewayError } from './gateway-error.ts';

/**
 * Canonical stream events follow a block lifecycle: every text, reasoning and tool-call block
 * is started, receives deltas and is ended, in order, never interleaved. The strictest encoder
 * (Anthropic) needs exactly this; decoders of looser protocols synthesise the starts and ends.
 * `id` names the block within one response.
 */
export type StreamEvent =
  | { type: 'response-start'; id: string; model: string; createdAt: number }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string; providerMetadata?: ProviderMetadata }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | {
      type: 'reasoning-end';
      id: string;
      signature?: string;
      redactedData?: string;
      providerMetadata?: ProviderMetadata;
    }
  | { type: 'tool-call-start'; id: string; callId: string; name: string }
  | { type: 'tool-call-delta'; id: string; argumentsDelta: string }
  | { type: 'tool-call-end'; id: string; providerMetadata?: ProviderMetadata }
  /** Cumulative usage so far; the last one before `response-end` is the final count. */
  | { type: 'usage'; usage: Usage }
  | { type: 'response-end'; finishReason: FinishReason; usage?: Usage }
  /** A failure after the stream began; encoders emit their protocol's in-stream error. */
  | { type: 'error'; error: GatewayError };

export type StreamEventType = StreamEvent['type'];
