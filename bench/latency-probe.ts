import { Client } from 'undici';
import type { BenchRequest } from './targets.ts';

export interface ProbeResult {
  /** Sorted latencies of successful requests, microseconds. */
  latenciesUs: number[];
  errors: number;
  firstError: string | undefined;
}

/**
 * Concurrency 1, one keep-alive connection, back-to-back requests for `durationMs` (at most
 * `maxRequests`), each timed to the last body byte with a µs clock. autocannon's histogram is
 * in whole milliseconds, too coarse for an added latency of a few hundred µs.
 */
export async function probeLatency(request: BenchRequest, durationMs: number, maxRequests: number): Promise<ProbeResult> {
  const client = new Client(request.origin, { keepAliveTimeout: 60_000, pipelining: 1 });
  const latenciesUs: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const deadline = performance.now() + durationMs;
  try {
    while (performance.now() < deadline && latenciesUs.length + errors < maxRequests) {
      const started = performance.now();
      try {
        const response = await client.request({ path: request.path, method: request.method, headers: request.headers, body: request.body });
        const text = await response.body.text();
        if (response.statusCode !== 200 || text.length === 0) {
          errors += 1;
          firstError ??= `HTTP ${response.statusCode}: ${text.slice(0, 200)}`;
          continue;
        }
        latenciesUs.push((performance.now() - started) * 1000);
      } catch (error) {
        errors += 1;
        firstError ??= (error as Error).message;
      }
    }
  } finally {
    await client.close().catch(() => undefined);
  }
  latenciesUs.sort((a, b) => a - b);
  return { latenciesUs, errors, firstError };
}

/** The q-quantile (0..1) of sorted values, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export function median(values: readonly number[]): number {
  const finite = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (finite.length === 0) return Number.NaN;
  const middle = finite.length >> 1;
  return finite.length % 2 === 1 ? (finite[middle] as number) : ((finite[middle - 1] as number) + (finite[middle] as number)) / 2;
}
