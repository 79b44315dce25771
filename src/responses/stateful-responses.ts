import type { StoredResponseRepository } from '../store/store.ts';

/**
 * Stateful Responses as configured for this gateway: where turns are kept and the bounds on
 * them. Built once per process (startup/start-gateway.ts).
 */
export interface StatefulResponses {
  repository: StoredResponseRepository;
  /** How long a turn is kept after it was created (RESPONSES_RETENTION_HOURS). */
  retentionMs: number;
  /** A turn whose input and response exceed this many UTF-8 bytes is not kept (RESPONSES_MAX_TURN_BYTES). */
  maxTurnBytes: number;
  /** A replayed conversation holds at most this many earlier turns. */
  maxChainTurns: number;
}

export const DEFAULT_RESPONSES_RETENTION_HOURS = 720;
export const DEFAULT_RESPONSES_MAX_TURN_BYTES = 4 * 1024 * 1024;
export const DEFAULT_RESPONSES_MAX_CHAIN_TURNS = 1_000;
