import type { LedgerRows } from '../domain/ledger-entry.ts';
import type { PaidBy, UsageAttempt, UsageLogEntry, UsageTransport } from '../domain/usage-log-entry.ts';

const NONE: never[] = [];

/**
 * Queued usage rows kept column by column until they are written: numbers in typed arrays,
 * strings as references (almost all of them are the snapshot's own key, group, model and
 * channel names), the first upstream attempt in columns of its own. A row object built per
 * request lived for a whole flush interval, so the young-generation GC copied and promoted it
 * (with its arrays) on the gateway's one core; here the per-request objects die young and
 * only the request id and the rare extra attempts or warnings outlive the request.
 * Rows come back out as `UsageLogEntry` objects only when the batch is written.
 */
export class UsageBatch {
  length = 0;
  /** Rows already handed to the writer's `observe` (metrics), counted from the first. */
  observed = 0;
  readonly capacity: number;
  readonly #numbers: Float64Array;
  readonly #strings: Array<string | null>;
  /** Attempts after the first and non-empty warnings, by row (rare). */
  readonly #extraAttempts = new Map<number, UsageAttempt[]>();
  readonly #warnings = new Map<number, string[]>();
  /** The request's ledger rows, by row (held as built: the ledger writes them with the row). */
  readonly #ledger = new Map<number, LedgerRows>();

  constructor(capacity: number) {
    this.capacity = capacity;
    this.#numbers = new Float64Array(capacity * NUMBER_COLUMNS);
    this.#strings = new Array<string | null>(capacity * STRING_COLUMNS).fill(null);
  }

  get full(): boolean {
    return this.length >= this.capacity;
  }

  push(entry: UsageLogEntry): void {
    const row = this.length;
    const n = this.#numbers;
    const at = row * NUMBER_COLUMNS;
    n[at] = entry.time;
    n[at + 1] = entry.status;
    n[at + 2] = entry.inputTokens;
    n[at + 3] = entry.outputTokens;
    n[at + 4] = entry.cacheReadTokens;
    n[at + 5] = entry.cacheWriteTokens;
    n[at + 6] = entry.reasoningTokens;
    // Integer micro-dollars below 2^53: a float64 holds them exactly.
    n[at + 7] = entry.costMicros;
    n[at + 8] = entry.latencyMs;
    n[at + 9] = entry.ttftMs ?? Number.NaN;
    n[at + 10] = entry.stream ? 1 : 0;
    const attempts = entry.attempts ?? NONE;
    const first = attempts[0];
    n[at + 11] = attempts.length;
    n[at + 12] = first?.status ?? Number.NaN;
    n[at + 13] = first?.latencyMs ?? 0;
    const s = this.#strings;
    const st = row * STRING_COLUMNS;
    s[st] = entry.requestId;
    s[st + 1] = entry.keyId;
    s[st + 2] = entry.keyName;
    s[st + 3] = entry.group;
    s[st + 4] = entry.model;
    s[st + 5] = entry.upstreamModel;
    s[st + 6] = entry.channelId;
    s[st + 7] = entry.channelName;
    s[st + 8] = entry.clientProtocol;
    s[st + 9] = entry.upstreamProtocol;
    s[st + 10] = entry.surface;
    s[st + 11] = entry.errorCode;
    s[st + 12] = entry.errorMessage;
    s[st + 13] = entry.clientIp;
    s[st + 14] = entry.userId ?? null;
    s[st + 15] = entry.paidBy ?? null;
    s[st + 16] = entry.subscriptionId ?? null;
    s[st + 17] = first?.channelId ?? null;
    s[st + 18] = first?.channelName ?? null;
    s[st + 19] = first?.errorCode ?? null;
    s[st + 20] = first?.upstreamType ?? null;
    s[st + 21] = entry.transport === 'websocket' ? 'websocket' : null;
    if (attempts.length > 1) this.#extraAttempts.set(row, attempts.slice(1));
    const warnings = entry.warnings ?? NONE;
    if (warnings.length > 0) this.#warnings.set(row, warnings);
    if (entry.ledger !== undefined) this.#ledger.set(row, entry.ledger);
    this.length = row + 1;
  }

  /** Row `row` as a usage log entry (fields the caller left out come back as null or 0). */
  entry(row: number): UsageLogEntry {
    const n = this.#numbers;
    const at = row * NUMBER_COLUMNS;
    const s = this.#strings;
    const st = row * STRING_COLUMNS;
    const attemptCount = n[at + 11] as number;
    const attempts: UsageAttempt[] = [];
    if (attemptCount > 0) {
      const status = n[at + 12] as number;
      attempts.push({
        channelId: s[st + 17] as string,
        channelName: s[st + 18] as string,
        status: Number.isNaN(status) ? null : status,
        errorCode: s[st + 19] ?? null,
        ...(s[st + 20] === null ? {} : { upstreamType: s[st + 20] as string }),
        latencyMs: n[at + 13] as number,
      });
      const extra = this.#extraAttempts.get(row);
      if (extra) attempts.push(...extra);
    }
    const ttft = n[at + 9] as number;
    const ledger = this.#ledger.get(row);
    return {
      requestId: s[st] as string,
      time: n[at] as number,
      keyId: s[st + 1] ?? null,
      keyName: s[st + 2] ?? null,
      group: s[st + 3] ?? null,
      model: s[st + 4] ?? null,
      upstreamModel: s[st + 5] ?? null,
      channelId: s[st + 6] ?? null,
      channelName: s[st + 7] ?? null,
      clientProtocol: s[st + 8] ?? null,
      upstreamProtocol: s[st + 9] ?? null,
      surface: s[st + 10] ?? null,
      status: n[at + 1] as number,
      errorCode: s[st + 11] ?? null,
      errorMessage: s[st + 12] ?? null,
      inputTokens: n[at + 2] as number,
      outputTokens: n[at + 3] as number,
      cacheReadTokens: n[at + 4] as number,
      cacheWriteTokens: n[at + 5] as number,
      reasoningTokens: n[at + 6] as number,
      costMicros: n[at + 7] as number,
      latencyMs: n[at + 8] as number,
      ttftMs: Number.isNaN(ttft) ? null : ttft,
      stream: n[at + 10] === 1,
      warnings: this.#warnings.get(row) ?? [],
      attempts,
      clientIp: s[st + 13] ?? null,
      userId: s[st + 14] ?? null,
      paidBy: (s[st + 15] as PaidBy | null) ?? null,
      subscriptionId: s[st + 16] ?? null,
      ...(s[st + 21] === null ? {} : { transport: s[st + 21] as UsageTransport }),
      ...(ledger === undefined ? {} : { ledger }),
    };
  }

  /** Empties the batch for reuse (its arrays are kept; stale references are overwritten). */
  reset(): void {
    this.length = 0;
    this.observed = 0;
    this.#extraAttempts.clear();
    this.#warnings.clear();
    this.#ledger.clear();
    this.#strings.fill(null);
  }

  entries(): UsageLogEntry[] {
    const entries = new Array<UsageLogEntry>(this.length);
    for (let row = 0; row < this.length; row++) entries[row] = this.entry(row);
    return entries;
  }
}

const NUMBER_COLUMNS = 14;
const STRING_COLUMNS = 22;
