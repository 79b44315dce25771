import { Client } from 'undici';
import { median } from './latency-probe.ts';
import { buildRequest, type Target, type Workload } from './targets.ts';

/** Median of each Server-Timing phase (ms) over sequential requests that ask for the header. */
export async function serverTimingBreakdown(target: Target, workload: Workload, requests: number): Promise<Record<string, number>> {
  const request = buildRequest(target, workload);
  const client = new Client(request.origin, { keepAliveTimeout: 60_000, pipelining: 1 });
  const phases: Record<string, number[]> = {};
  try {
    for (let index = 0; index < requests; index++) {
      const response = await client.request({
        path: request.path,
        method: 'POST',
        headers: { ...request.headers, 'x-switchyard-timing': '1' },
        body: request.body,
      });
      await response.body.text();
      const header = response.headers['server-timing'];
      for (const entry of String(header ?? '').split(', ')) {
        const match = /^([a-z-]+);dur=([\d.]+)$/.exec(entry);
        if (match) (phases[match[1] as string] ??= []).push(Number(match[2]));
      }
    }
  } finally {
    await client.close();
  }
  return Object.fromEntries(Object.entries(phases).map(([phase, values]) => [phase, median(values)]));
}
