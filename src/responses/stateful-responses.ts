import type { StoredResponseRepository } from '../store/store.ts';
import type { StoredBytesQuota } from './stored-bytes-quota.ts';

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
  /**
   * A conversation whose kept turns add up to more than this many bytes is not continued (429
   * `stored_responses_limit`), and its turns are not read past the bound (RESPONSES_MAX_CHAIN_BYTES).
   */
  maxChainBytes: number;
  /** A key whose kept turns add up to this many bytes keeps no more (429 for `store` on; RESPONSES_MAX_KEY_BYTES). */
  keyBytes: StoredBytesQuota;
}

export const DEFAULT_RESPONSES_RETENTION_HOURS = 720;
export const DEFAULT_RESPONSES_MAX_TURN_BYTES = 4 * 1024 * 1024;
export const DEFAULT_RESPONSES_MAX_CHAIN_TURNS = 1_000;
export const DEFAULT_RESPONSES_MAX_CHAIN_BYTES = 16 * 1024 * 1024;
export const DEFAULT_RESPONSES_MAX_KEY_BYTES = 256 * 1024 * 1024;
