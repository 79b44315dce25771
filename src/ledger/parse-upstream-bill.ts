import { isRecord } from '../protocols/shared/is-record.ts';
import type { UpstreamBill } from '../domain/ledger-entry.ts';

/** The export formats an upstream's bill is read from. */
export const BILL_FORMATS = ['openai', 'anthropic', 'csv'] as const;
export type BillFormat = (typeof BILL_FORMATS)[number];

/**
 * An upstream's usage export as bill lines of one channel, one per UTC day × model (rows of the
 * same day and model summed): OpenAI's organization costs (`GET /v1/organization/costs`, amounts
 * in USD; `line_item` "<model>, <class>" when grouped by it) with its usage pages
 * (`/v1/organization/usage/completions`, tokens only); Anthropic's cost report
 * (`GET /v1/organizations/cost_report`, amounts in cents as decimal strings) and usage report;
 * or a CSV with a header naming `date`, `cost_usd` and optionally `model` and token columns.
 * A file it cannot read is refused with the reason, never read as a zero bill.
 */
export function parseUpstreamBill(format: BillFormat, data: unknown, channelId: string): UpstreamBill[] {
  const lines = new BillLines(channelId, format);
  if (format === 'csv') readCsv(lines, data);
  else for (const page of pagesOf(data)) for (const bucket of bucketsOf(page)) readBucket(lines, format, bucket);
  return lines.bills();
}

class BillLines {
  #byKey = new Map<string, UpstreamBill>();
  constructor(
    private readonly channelId: string,
    private readonly source: string,
  ) {}
  add(day: string, model: string, costMicros: number, tokens: Record<string, number>): void {
    const key = `${day}\u0000${model}`;
    let bill = this.#byKey.get(key);
    if (bill === undefined) {
      bill = { channelId: this.channelId, day, model, costMicros: 0, tokens: {}, source: this.source };
      this.#byKey.set(key, bill);
    }
    bill.costMicros += costMicros;
    for (const [name, count] of Object.entries(tokens)) bill.tokens[name] = (bill.tokens[name] ?? 0) + count;
  }
  bills(): UpstreamBill[] {
    return [...this.#byKey.values()].sort((a, b) => a.day.localeCompare(b.day) || a.model.localeCompare(b.model));
  }
}

function pagesOf(data: unknown): Record<string, unknown>[] {
  const pages = Array.isArray(data) ? data : [data];
  return pages.map((page) => {
    if (!isRecord(page) || !Array.isArray(page.data))
      throw new TypeError('expected the export page(s) as the API returned them: an object with a "data" list of buckets');
    return page;
  });
}

function bucketsOf(page: Record<string, unknown>): Record<string, unknown>[] {
  return (page.data as unknown[]).map((bucket, index) => {
    if (!isRecord(bucket) || !Array.isArray(bucket.results)) throw new TypeError(`data[${index}]: expected a bucket with "results"`);
    return bucket;
  });
}

function readBucket(lines: BillLines, format: BillFormat, bucket: Record<string, unknown>): void {
  const day = format === 'openai' ? dayOfSeconds(bucket.start_time) : dayOfIso(bucket.starting_at);
  for (const result of bucket.results as unknown[]) {
    if (!isRecord(result)) continue;
    if (format === 'openai') readOpenAiResult(lines, day, result);
    else readAnthropicResult(lines, day, result);
  }
}

function readOpenAiResult(lines: BillLines, day: string, result: Record<string, unknown>): void {
  if (isRecord(result.amount)) {
    const value = result.amount.value;
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`${day}: a cost result without a numeric amount.value`);
    const lineItem = typeof result.line_item === 'string' ? result.line_item : '';
    lines.add(day, lineItem.split(',')[0]?.trim() || '*', Math.round(value * 1_000_000), {});
    return;
  }
  const tokens = counts(result, { input: 'input_tokens', output: 'output_tokens', cacheRead: 'input_cached_tokens' });
  lines.add(day, typeof result.model === 'string' ? result.model : '*', 0, tokens);
}

function readAnthropicResult(lines: BillLines, day: string, result: Record<string, unknown>): void {
  const model = typeof result.model === 'string' ? result.model : '*';
  if (typeof result.amount === 'string') {
    lines.add(day, model, centsToMicros(result.amount), {});
    return;
  }
  const cacheCreation = isRecord(result.cache_creation) ? result.cache_creation : {};
  lines.add(day, model, 0, {
    ...counts(result, { input: 'uncached_input_tokens', output: 'output_tokens', cacheRead: 'cache_read_input_tokens' }),
    ...counts(cacheCreation, { cacheWrite5m: 'ephemeral_5m_input_tokens', cacheWrite1h: 'ephemeral_1h_input_tokens' }),
  });
}

/** "123.45" cents → 1,234,500 micro-USD, exactly (decimal string, no floating point). */
export function centsToMicros(amount: string): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (match === null) throw new TypeError(`amount "${amount}" is not a decimal number of cents`);
  const [, sign, whole, fraction = ''] = match;
  const digits = (fraction + '00000').slice(0, 5);
  // 4 fractional digits are whole micro-USD (1 cent = 10,000 µUSD); the 5th rounds half up.
  const micros = Number(whole) * 10_000 + Number(digits.slice(0, 4)) + (Number(digits[4]) >= 5 ? 1 : 0);
  return sign === '-' ? -micros : micros;
}

function readCsv(lines: BillLines, data: unknown): void {
  if (typeof data !== 'string') throw new TypeError('expected the CSV as text');
  const rows = data
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map(splitCsvLine);
  const header = (rows.shift() ?? []).map((name) => name.trim().toLowerCase());
  const column = (name: string) => header.indexOf(name);
  if (column('date') < 0 || column('cost_usd') < 0)
    throw new TypeError(
      'the CSV header must name "date" and "cost_usd" (and may name model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens)',
    );
  rows.forEach((row, index) => {
    const day = (row[column('date')] ?? '').trim();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new TypeError(`line ${index + 2}: date "${day}" is not YYYY-MM-DD`);
    const cost = Number(row[column('cost_usd')]);
    if (!Number.isFinite(cost)) throw new TypeError(`line ${index + 2}: cost_usd is not a number`);
    const tokens: Record<string, number> = {};
    for (const [name, field] of [
      ['input', 'input_tokens'],
      ['output', 'output_tokens'],
      ['cacheRead', 'cache_read_tokens'],
      ['cacheWrite', 'cache_write_tokens'],
    ] as const) {
      const value = Number(row[column(field)]);
      if (column(field) >= 0 && Number.isFinite(value)) tokens[name] = value;
    }
    lines.add(day, (row[column('model')] ?? '').trim() || '*', Math.round(cost * 1_000_000), tokens);
  });
}

/** One CSV line: commas separate, double quotes enclose a field ("" is a quote). */
function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quoted && char === '"' && line[index + 1] === '"') {
      field += '"';
      index += 1;
    } else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}

function counts(source: Record<string, unknown>, names: Record<string, string>): Record<string, number> {
  const found: Record<string, number> = {};
  for (const [name, field] of Object.entries(names)) {
    const value = source[field];
    if (typeof value === 'number' && Number.isFinite(value)) found[name] = value;
  }
  return found;
}

function dayOfSeconds(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError('a bucket without a numeric start_time');
  return new Date(value * 1000).toISOString().slice(0, 10);
}

function dayOfIso(value: unknown): string {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw new TypeError('a bucket without an RFC 3339 starting_at');
  return new Date(time).toISOString().slice(0, 10);
}
