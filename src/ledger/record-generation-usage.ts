import type { Caller } from '../access/authenticate-key.ts';
import type { KeyRefusedError } from '../access/key-refused-error.ts';
import type { GatewayError } from '../core/gateway-error.ts';
import type { Usage } from '../core/usage.ts';
import type { LedgerRows } from '../domain/ledger-entry.ts';
import type { PaidBy, UsageAttempt, UsageLogEntry, UsageTransport } from '../domain/usage-log-entry.ts';
import type { UsageWriter } from '../billing/usage-writer.ts';

/** What the relay reports about a request it carried (the relay's result satisfies this). */
export interface RelaySummary {
  status: number;
  error: GatewayError | undefined;
  channel: { id: string; name: string } | undefined;
  upstreamModel: string | undefined;
  upstreamProtocol: string | undefined;
  warnings: string[];
  attempts: UsageAttempt[];
}

export type GenerationOutcome =
  | { kind: 'relayed'; result: RelaySummary; firstByteAt: number | undefined; usage: Usage | undefined; costMicros: number; reported?: Usage | undefined }
  | { kind: 'refused'; error: GatewayError };

export interface GenerationRecord {
  requestId: string;
  clientProtocol: string;
  surface: string | null;
  /** How the request arrived (absent: HTTP). */
  transport?: UsageTransport | undefined;
  caller: Caller | undefined;
  /** The model as far as it was known when the request ended (null before it was read). */
  model: string | null;
  stream: boolean;
  startedAt: number;
  endedAt: number;
  clientIp: string;
  outcome: GenerationOutcome;
  warnings: string[];
  /** What was to pay, once admitted (the usage row says what paid). */
  payment?: { paidBy: PaidBy | null; subscriptionId: string | null; userId: string | null } | undefined;
}

/**
 * One usage row per generation request from a known key, relayed or refused — for the key's
 * own state too (disabled, expired, fenced: `recordKeyRefusal`); a request with an unknown or
 * missing key writes none (anyone can send one: it is counted in the metrics instead),
 * shaped here once. Built field by field: object rest/spread over ~25 fields costs several µs
 * a request on this path. Rows are written in batches, off the hot path.
 */
export function recordGenerationUsage(writer: Pick<UsageWriter, 'record'>, record: GenerationRecord, ledger?: LedgerRows): void {
  const { outcome, caller } = record;
  const relayed = outcome.kind === 'relayed' ? outcome : undefined;
  const result = relayed?.result;
  const error = outcome.kind === 'relayed' ? outcome.result.error : outcome.error;
  const status = outcome.kind === 'relayed' ? outcome.result.status : outcome.error.status;
  const usage = relayed?.usage;
  const entry: UsageLogEntry = {
    requestId: record.requestId,
    time: record.startedAt,
    keyId: caller?.key.id ?? null,
    keyName: caller?.key.name ?? null,
    group: caller?.group.name ?? null,
    model: record.model,
    upstreamModel: result?.upstreamModel ?? null,
    channelId: result?.channel?.id ?? null,
    channelName: result?.channel?.name ?? null,
    clientProtocol: record.clientProtocol,
    upstreamProtocol: result?.upstreamProtocol ?? null,
    surface: record.surface,
    status,
    errorCode: error?.code ?? null,
    errorMessage: error?.message ?? null,
    costMicros: relayed?.costMicros ?? 0,
    latencyMs: record.endedAt - record.startedAt,
    ttftMs: relayed?.firstByteAt === undefined ? null : relayed.firstByteAt - record.startedAt,
    stream: record.stream,
    warnings: unique(result ? [...result.warnings, ...record.warnings] : record.warnings),
    attempts: result ? result.attempts : [],
    clientIp: record.clientIp || null,
    userId: record.payment?.userId ?? caller?.key.userId ?? null,
    paidBy: relayed && relayed.costMicros !== 0 ? (record.payment?.paidBy ?? null) : null,
    subscriptionId: relayed && relayed.costMicros !== 0 ? (record.payment?.subscriptionId ?? null) : null,
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cacheReadTokens: usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
    reasoningTokens: usage?.reasoningTokens ?? 0,
    transport: record.transport ?? 'http',
  };
  if (ledger !== undefined) entry.ledger = ledger;
  writer.record(entry);
}

/** Where a refused request came in, as far as the key check (headers only, no body yet) knows it. */
export interface KeyRefusalRecord {
  requestId: string;
  clientProtocol: string;
  surface: string | null;
  /** Only a path that names it (Gemini's) tells the model before the body is read. */
  model: string | null;
  at: number;
  clientIp: string;
}

/** The usage row of a known key refused for its state or address, so its holder finds the reason on the Logs page. */
export function recordKeyRefusal(writer: Pick<UsageWriter, 'record'>, error: KeyRefusedError, record: KeyRefusalRecord): void {
  recordGenerationUsage(writer, {
    requestId: record.requestId,
    clientProtocol: record.clientProtocol,
    surface: record.surface,
    caller: error.caller,
    model: record.model,
    stream: false,
    startedAt: record.at,
    endedAt: record.at,
    clientIp: record.clientIp,
    outcome: { kind: 'refused', error },
    warnings: [],
  });
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
