import { GatewayError } from '../../core/gateway-error.ts';

/** Bounds on an upstream reply (config/reply-limits.ts sets their defaults; the settings name them). */
export interface SseLimits {
  /** One SSE event (or a plain reply's JSON) may not exceed this many bytes (MAX_UPSTREAM_EVENT_BYTES). */
  maxEventBytes: number;
  /** A whole reply, streamed or not, may not exceed this many bytes (MAX_UPSTREAM_REPLY_BYTES). */
  maxReplyBytes: number;
}

/**
 * An event larger than the bound is malformed upstream data (a line that never ends): the
 * channel's fault, counted against its health.
 */
export function eventTooLarge(limit: number): GatewayError {
  return new GatewayError(
    'upstream_invalid_response',
    `The upstream sent an event larger than ${limit} bytes (MAX_UPSTREAM_EVENT_BYTES); the reply was cut short.`,
  );
}

/**
 * A reply past the total bound: cut with a clear error. The request asked for a longer reply
 * than this gateway carries, so the channel is blameless (`channelBlameless`): its health is not
 * charged for it and no other channel is tried (it would write as much).
 */
export function replyTooLarge(limit: number, setting = 'MAX_UPSTREAM_REPLY_BYTES'): GatewayError {
  return new GatewayError(
    'upstream_invalid_response',
    `The reply grew past ${limit} bytes (${setting}), more than this gateway carries for one request; it was cut short. Ask for less output (max_tokens) or fewer alternatives.`,
    { status: 502, channelBlameless: true },
  );
}
