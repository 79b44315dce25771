import type { LogEntry } from './types.ts';

const COLUMNS: Array<[string, (entry: LogEntry) => unknown]> = [
  ['time', (entry) => entry.time],
  ['request_id', (entry) => entry.requestId],
  ['key', (entry) => entry.keyName ?? entry.keyId],
  ['group', (entry) => entry.group],
  ['model', (entry) => entry.model],
  ['channel', (entry) => entry.channelName],
  ['attempts', (entry) => entry.attempts.length],
  ['attempt_chain', (entry) => attemptChain(entry)],
  ['status', (entry) => entry.status],
  ['error_code', (entry) => entry.errorCode],
  ['input_tokens', (entry) => entry.inputTokens],
  ['output_tokens', (entry) => entry.outputTokens],
  ['cache_read_tokens', (entry) => entry.cacheReadTokens],
  ['cache_write_tokens', (entry) => entry.cacheWriteTokens],
  ['cost_usd', (entry) => (entry.costMicros / 1_000_000).toFixed(6)],
  ['latency_ms', (entry) => entry.latencyMs],
  ['ttft_ms', (entry) => entry.ttftMs],
  ['stream', (entry) => entry.stream],
  ['client_protocol', (entry) => entry.clientProtocol],
  ['client_ip', (entry) => entry.clientIp],
];

/** "a 502 → b 200": every channel tried, in order, with how each ended. */
export function attemptChain(entry: LogEntry): string {
  return entry.attempts.map((attempt) => `${attempt.channelName} ${attempt.errorCode ?? attempt.status ?? 'ok'}`).join(' → ');
}

/** RFC 4180 CSV; cells that a spreadsheet would run as a formula are prefixed with a quote. */
export function logsCsv(entries: readonly LogEntry[]): string {
  const lines = [COLUMNS.map(([name]) => name).join(',')];
  for (const entry of entries) lines.push(COLUMNS.map(([, read]) => cell(read(entry))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
