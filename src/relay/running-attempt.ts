import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import type { Lease } from './routing/channel-health.ts';
import type { AttemptFailure, AttemptReady } from './attempt-channel.ts';

/** One attempt the race has started and not yet settled. */
export interface RunningAttempt {
  channel: Channel;
  lease: Lease;
  /** Holds its place in the request's attempt list (kept in the order attempts started). */
  placeholder: UsageAttempt;
  /** Its own controller, when the race may have to stop it alone; otherwise it follows the request's signal. */
  controller: AbortController | undefined;
  startedAt: number;
  deadlineMs: number | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Its first-byte deadline passed. */
  overdue: boolean;
  /** Why the race stopped it, shown as the attempt's error code. */
  cancelledAs: 'first_byte_timeout' | 'cancelled' | undefined;
  settled: Promise<RaceEvent>;
  late: Promise<RaceEvent> | undefined;
}

/** What the race waits for: an attempt past its first-byte deadline, settled, or thrown. */
export type RaceEvent =
  | { type: 'late'; running: RunningAttempt }
  | { type: 'settled'; running: RunningAttempt; outcome: AttemptReady | AttemptFailure }
  | { type: 'thrown'; running: RunningAttempt; error: unknown };
