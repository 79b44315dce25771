import type { BenchResults } from './bench-results.ts';
import { median } from './latency-probe.ts';
import { addedOverDirect, cpuPerChunk, maxRps, rssPerThousand } from './report.ts';

/**
 * The headline figures of a run as one flat list, so two runs can be compared figure by figure
 * (`--compare`). `gate` marks the figures whose rise above 10 % fails the regression gate:
 * tail latencies and CPU per request (the gate); the rest are printed for context.
 */
export interface Figure {
  name: string;
  value: number;
  unit: 'µs' | 'ms' | 'RPS' | 'MiB' | '×';
  /** true when a smaller value is better. */
  lowerIsBetter: boolean;
  gate: 'p99' | 'cpu' | undefined;
}

const SYSTEMS = ['switchyard', 'sy-oa-an', 'sy-an-oa', 'sy-gm-oa', 'proxy', 'portkey'] as const;

export function figuresOf(results: BenchResults): Figure[] {
  const figures: Figure[] = [];
  const add = (name: string, value: number, unit: Figure['unit'], lowerIsBetter: boolean, gate?: Figure['gate']) => {
    if (Number.isFinite(value)) figures.push({ name, value, unit, lowerIsBetter, gate });
  };
  const label = (id: string) => results.labels[id] ?? id;
  const has = (id: string) => (results.latencyAtOne[id] ?? []).length > 0;
  for (const id of SYSTEMS.filter(has)) {
    const name = label(id);
    add(
      `${name}: added latency c=1 p50`,
      addedOverDirect(results, id, (s) => s.p50Us, 'latencyAtOne'),
      'µs',
      true,
    );
    add(`${name}: c=1 p99`, median((results.latencyAtOne[id] ?? []).map((s) => s.p99Us)), 'µs', true, 'p99');
    for (const c of results.config.ladder) {
      const rounds = results.ladder[id] ?? [];
      add(`${name}: CPU per request c=${c}`, median(rounds.map((r) => r[c]?.cpuUsPerRequest ?? Number.NaN)), 'µs', true, 'cpu');
      add(`${name}: p99 c=${c}`, median(rounds.map((r) => r[c]?.p99Ms ?? Number.NaN)), 'ms', true, 'p99');
    }
    add(`${name}: max RPS p99 < 20 ms`, maxRps(results, id, 20), 'RPS', false);
    add(
      `${name}: added TTFE p50`,
      addedOverDirect(results, id, (s) => s.ttfeP50Us, 'ttfe'),
      'µs',
      true,
    );
    add(`${name}: TTFE p99`, median((results.ttfe[id] ?? []).map((s) => s.ttfeP99Us)), 'µs', true, 'p99');
    add(`${name}: gap p99 (A)`, median((results.gaps[id] ?? []).map((s) => s.gapP99Us)), 'µs', true, 'p99');
    add(`${name}: CPU per chunk (B)`, cpuPerChunk(results, id), 'µs', true, 'cpu');
    add(`${name}: RSS per 1,000 streams`, rssPerThousand(results, id), 'MiB', true);
  }
  for (const [name, key] of [
    ['switchyard', 'switchyard'],
    ['minimal proxy', 'minimal-proxy'],
  ] as const) {
    add(`${name}: idle RSS`, results.idleRssMiB[key] ?? Number.NaN, 'MiB', true);
  }
  const proxyCpu = median((results.ladder.proxy ?? []).map((r) => r[results.config.cpuConcurrency]?.cpuUsPerRequest ?? Number.NaN));
  const syCpu = median((results.ladder.switchyard ?? []).map((r) => r[results.config.cpuConcurrency]?.cpuUsPerRequest ?? Number.NaN));
  add(`CPU per request ratio to the proxy c=${results.config.cpuConcurrency}`, syCpu / proxyCpu, '×', true);
  add('max RPS ratio to the proxy (p99 < 20 ms)', maxRps(results, 'switchyard', 20) / maxRps(results, 'proxy', 20), '×', false);
  return figures;
}

export interface FigureChange {
  name: string;
  unit: Figure['unit'];
  before: number | undefined;
  after: number | undefined;
  /** (after − before) / before; NaN when either side is missing. */
  change: number;
  /** A gated figure (p99, CPU per request) that got worse by more than the threshold. */
  regression: boolean;
}

/** Figure-by-figure change between two runs; a p99 or CPU figure rising above `threshold` is a regression. */
export function compareFigures(before: BenchResults, after: BenchResults, threshold = 0.1): FigureChange[] {
  const old = new Map(figuresOf(before).map((figure) => [figure.name, figure]));
  const changes: FigureChange[] = [];
  const seen = new Set<string>();
  for (const figure of figuresOf(after)) {
    seen.add(figure.name);
    const previous = old.get(figure.name);
    const change = previous && previous.value !== 0 ? (figure.value - previous.value) / Math.abs(previous.value) : Number.NaN;
    const worse = figure.lowerIsBetter ? change : -change;
    changes.push({
      name: figure.name,
      unit: figure.unit,
      before: previous?.value,
      after: figure.value,
      change,
      regression: figure.gate !== undefined && Number.isFinite(worse) && worse > threshold,
    });
  }
  for (const [name, figure] of old) {
    if (!seen.has(name)) changes.push({ name, unit: figure.unit, before: figure.value, after: undefined, change: Number.NaN, regression: false });
  }
  return changes;
}

export function renderComparison(before: BenchResults, after: BenchResults, changes: FigureChange[]): string {
  const format = (value: number | undefined, unit: Figure['unit']) =>
    value === undefined ? '—' : `${unit === '×' ? value.toFixed(2) : unit === 'ms' ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')} ${unit}`;
  const lines = [
    `## Comparison: ${before.startedAt.slice(0, 16)} (load ${loadOf(before)}) → ${after.startedAt.slice(0, 16)} (load ${loadOf(after)})`,
    '',
    "A p99 or CPU-per-request figure that rose more than 10 % is flagged **REGRESSION**. On a shared box, check the noise (load average, the minimal proxy's own figures) before believing one.",
    '',
    '| figure | before | after | change | |',
    '|---|---|---|---|---|',
  ];
  for (const row of changes) {
    const change = Number.isFinite(row.change) ? `${row.change >= 0 ? '+' : ''}${(row.change * 100).toFixed(1)} %` : '—';
    lines.push(`| ${row.name} | ${format(row.before, row.unit)} | ${format(row.after, row.unit)} | ${change} | ${row.regression ? '**REGRESSION**' : ''} |`);
  }
  const regressions = changes.filter((row) => row.regression);
  lines.push('');
  lines.push(
    regressions.length ? `${regressions.length} regression(s): ${regressions.map((row) => row.name).join('; ')}.` : 'No gated figure rose more than 10 %.',
  );
  return lines.join('\n');
}

function loadOf(results: BenchResults): string {
  return `${results.loadavg.start.split(' ')[0] ?? '?'} → ${results.loadavg.end.split(' ')[0] ?? '?'}`;
}
