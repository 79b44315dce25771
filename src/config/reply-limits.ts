import type { SseLimits } from '../protocols/sse/sse-limits.ts';

/** Bounds on what the gateway holds of one upstream reply (one event, the whole reply). */
export type ReplyLimits = SseLimits;

/**
 * Far above any real event (a Gemini image part in base64 is a few MB) and any real reply (a
 * 100k-token reasoning stream is ~30 MB of SSE), far below what hurts a process.
 */
export const DEFAULT_REPLY_LIMITS: ReplyLimits = { maxEventBytes: 16 * 1024 * 1024, maxReplyBytes: 256 * 1024 * 1024 };
