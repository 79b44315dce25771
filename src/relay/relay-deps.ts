import type { Logger } from 'pino';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { ChannelHealth } from './routing/channel-health.ts';
import type { UpstreamClient } from './channels/upstream-client.ts';
import type { ReplyLimits } from './reply-limits.ts';
import type { StreamGauge } from './stream-gauge.ts';
import type { EnvelopeSealer } from './reasoning/reasoning-envelope.ts';
import type { ReasoningCache } from './reasoning/reasoning-cache.ts';
import type { FirstByteDeadlines } from './routing/first-byte-deadline.ts';

/** What the relay is built with, once per process. */
export interface RelayDeps {
  upstream: UpstreamClient;
  runtime: RuntimeContext;
  logger: Logger;
  health: ChannelHealth;
  streams: StreamGauge;
  /** Upstream statuses worth trying on another channel. */
  retryStatuses: ReadonlySet<number>;
  /** Real upstream attempts per request (channels skipped for an open circuit do not count). */
  maxAttempts: number;
  /** The whole request, streams included, ends after this long. */
  totalTimeoutMs: number;
  /** An upstream `retry-after` up to this long is waited out when no other channel is left. */
  maxRetryWaitMs: number;
  /** Keep-alive frames to the client after this much upstream silence. */
  keepAliveMs: number;
  /**
   * First-byte deadlines for streamed attempts, from each channel × model's observed times
   * (absent: an attempt waits out the upstream's first-byte timeout). With `hedge`, a late
   * attempt keeps running beside the next candidate and the first to answer wins; without, it
   * is given up for the next candidate. A request whose body is over `maxBodyChars` has no
   * deadline: its first byte is slow because of its size, which the tenant chooses, and a
   * second attempt would pay for the whole prompt again (see SECURITY.md).
   */
  firstByte?: { deadlines: FirstByteDeadlines; hedge: boolean; maxBodyChars: number };
  /** Bounds on one upstream event and one whole reply (default DEFAULT_REPLY_LIMITS). */
  replyLimits?: ReplyLimits;
  /** Carries upstream reasoning state through clients of other protocols (absent: not carried). */
  reasoning?: { sealer: EnvelopeSealer; cache: ReasoningCache };
}
