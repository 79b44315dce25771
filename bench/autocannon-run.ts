import { createRequire } from 'node:module';
import type { BenchRequest } from './targets.ts';

// autocannon is a dependency of bench/package.json only, not of the gateway.
const require = createRequire(new URL('./node_modules/', import.meta.url));

export interface LoadPlan {
  request: BenchRequest;
  connections: number;
  durationS: number;
  /** Fixed offered rate over all connections (autocannon -R); closed loop when absent. */
  overallRate?: number;
}

export interface LoadResult {
  rps: number;
  /** autocannon's histogram is in whole milliseconds. */
  p50Ms: number;
  p99Ms: number;
  completed: number;
  errors: number;
  non2xx: number;
}

/** One autocannon run, pipelining 1 (LLM clients never pipeline). */
export async function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const autocannon = require('autocannon') as (options: object) => Promise<any>;
  const result = await autocannon({
    url: `${plan.request.origin}${plan.request.path}`,
    method: plan.request.method,
    headers: plan.request.headers,
    body: plan.request.body,
    connections: plan.connections,
    pipelining: 1,
    duration: plan.durationS,
    timeout: 10,
    ...(plan.overallRate ? { overallRate: plan.overallRate } : {}),
  });
  const completed = (result['2xx'] ?? 0) as number;
  return {
    rps: completed / plan.durationS,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    completed,
    errors: (result.errors ?? 0) + (result.timeouts ?? 0),
    non2xx: result.non2xx ?? 0,
  };
}
