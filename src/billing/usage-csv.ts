import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import type { UsageLogRepository } from '../store/store.ts';
import type { UsageLogQuery } from '../store/usage-queries.ts';

/** Rows read per keyset page: big enough that the statement cost vanishes, small enough to hold. */
const EXPORT_PAGE_ROWS = 2_000;

const COLUMNS = [
  'time',
  'request_id',
  'key_id',
  'key_name',
  'group',
  'model',
  'upstream_model',
  'channel_id',
  'channel_name',
  'client_protocol',
  'upstream_protocol',
  'status',
  'error_code',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'cost_usd',
  'latency_ms',
  'ttft_ms',
  'stream',
  'transport',
] as const;

/**
 * The usage log as CSV, newest first, one chunk per keyset page: a month of a busy gateway is
 * millions of rows, so neither the rows nor the text are ever held whole; the caller pipes the
 * chunks to the response and backpressure paces the reads. Filters as the logs page's.
 */
export async function* usageCsvChunks(
  usage: Pick<UsageLogRepository, 'query'>,
  filter: Omit<UsageLogQuery, 'limit' | 'before' | 'beforeRequestId'>,
): AsyncGenerator<string> {
  yield `${COLUMNS.join(',')}\r\n`;
  let cursor: Pick<UsageLogQuery, 'before' | 'beforeRequestId'> = {};
  for (;;) {
    const page = await usage.query({ ...filter, ...cursor, limit: EXPORT_PAGE_ROWS });
    if (page.length === 0) return;
    let text = '';
    for (const entry of page) text += csvRow(entry);
    yield text;
    if (page.length < EXPORT_PAGE_ROWS) return;
    const last = page[page.length - 1] as UsageLogEntry;
    cursor = { before: last.time, beforeRequestId: last.requestId };
  }
}

function csvRow(entry: UsageLogEntry): string {
  const cells = [
    new Date(entry.time).toISOString(),
    entry.requestId,
    entry.keyId,
    entry.keyName,
    entry.group,
    entry.model,
    entry.upstreamModel,
    entry.channelId,
    entry.channelName,
    entry.clientProtocol,
    entry.upstreamProtocol,
    entry.status,
    entry.errorCode,
    entry.inputTokens,
    entry.outputTokens,
    entry.cacheReadTokens,
    entry.cacheWriteTokens,
    entry.reasoningTokens,
    microsToDecimal(entry.costMicros),
    entry.latencyMs,
    entry.ttftMs,
    entry.stream ? 1 : 0,
    entry.transport ?? 'http',
  ];
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Exact: micro-USD as a decimal string, never through a float. */
function microsToDecimal(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const digits = String(Math.abs(micros)).padStart(7, '0');
  return `${sign}${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

/**
 * RFC 4180 quoting, and a leading = + - @ (or tab, CR) neutralised with a quote mark: a key or
 * model name is tenant-chosen text, and a spreadsheet would run it as a formula.
 */
function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
