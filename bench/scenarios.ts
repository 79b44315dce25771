import { runLoad, type LoadResult } from './autocannon-run.ts';
import type { BenchConfig } from './bench-config.ts';
import { probeLatency, quantile } from './latency-probe.ts';
import { cpuCoreTicks, cpuMicros } from './proc-stats.ts';
import { GATEWAY_CPU } from './systems.ts';
import { buildRequest, type Target, type Workload } from './targets.ts';

/** Non-streamed scenarios. Every function runs one round over all its targets (interleaved). */

export const BASE: Workload = { profile: 's0', requestBytes: 200, stream: false };

export interface LatencySample {
  p50Us: number;
  p99Us: number;
  requests: number;
  errors: number;
  firstError: string | undefined;
}

export async function latencyAtOne(target: Target, workload: Workload, config: BenchConfig): Promise<LatencySample> {
  const probe = await probeLatency(buildRequest(target, workload), config.latencyMs, config.latencyMaxRequests);
  return {
    p50Us: quantile(probe.latenciesUs, 0.5),
    p99Us: quantile(probe.latenciesUs, 0.99),
    requests: probe.latenciesUs.length,
    errors: probe.errors,
    firstError: probe.firstError,
  };
}

export interface LoadSample extends LoadResult {
  /** Gateway process-tree CPU over the run divided by completed requests (µs); NaN for direct. */
  cpuUsPerRequest: number;
  /** Gateway CPU time over wall time (1 = one full core). */
  coreUtilisation: number;
  /** Busy share of the gateway's core not spent by the gateway: other processes on the box (noise). */
  othersOnGatewayCore: number;
}

export async function loadWithCpu(target: Target, workload: Workload, connections: number, durationS: number, overallRate?: number): Promise<LoadSample> {
  const before = target.pid === undefined ? 0 : cpuMicros(target.pid);
  const coreBefore = cpuCoreTicks(Number(GATEWAY_CPU));
  const started = performance.now();
  const result = await runLoad({ request: buildRequest(target, workload), connections, durationS, ...(overallRate ? { overallRate } : {}) });
  const wallUs = (performance.now() - started) * 1000;
  const cpu = target.pid === undefined ? Number.NaN : cpuMicros(target.pid) - before;
  const coreAfter = cpuCoreTicks(Number(GATEWAY_CPU));
  const coreBusy = (coreAfter.busy - coreBefore.busy) / Math.max(1, coreAfter.total - coreBefore.total);
  return {
    ...result,
    othersOnGatewayCore: Math.max(0, coreBusy - (Number.isFinite(cpu) ? cpu / wallUs : 0)),
    cpuUsPerRequest: result.completed > 0 ? cpu / result.completed : Number.NaN,
    coreUtilisation: cpu / wallUs,
  };
}

/** One ladder (every concurrency step) for one target. */
export async function ladder(target: Target, config: BenchConfig): Promise<Map<number, LoadSample>> {
  const steps = new Map<number, LoadSample>();
  for (const connections of config.ladder) steps.set(connections, await loadWithCpu(target, BASE, connections, config.ladderStepS));
  return steps;
}

/** The highest RPS of a ladder whose p99 stayed under the bound with no errors. */
export function maxRpsUnder(steps: Map<number, LoadSample>, p99BoundMs: number): number {
  let best = 0;
  for (const step of steps.values()) {
    if (step.errors === 0 && step.non2xx === 0 && step.p99Ms < p99BoundMs && step.rps > best) best = step.rps;
  }
  return best;
}

export interface NamedWorkload {
  name: string;
  workload: Workload;
}

/** Request sizes, reply sizes and upstream latency beyond the base case. */
export const WORKLOADS: NamedWorkload[] = [
  { name: 'reply 10 KB', workload: { profile: 'l0', requestBytes: 200, stream: false } },
  { name: 'request 10 KB', workload: { profile: 's0', requestBytes: 10_000, stream: false } },
  { name: 'request 50 KB', workload: { profile: 's0', requestBytes: 50_000, stream: false } },
  { name: 'upstream 20 ms', workload: { profile: 's20', requestBytes: 200, stream: false } },
];

export interface WorkloadSample {
  atOne: LatencySample;
  loaded: LoadSample;
}

/** The smoke run checks one workload; the full run all of them. */
export function workloadsFor(config: BenchConfig): NamedWorkload[] {
  return config.smoke ? WORKLOADS.slice(0, 1) : WORKLOADS;
}

export async function workloadRound(target: Target, named: NamedWorkload, config: BenchConfig): Promise<WorkloadSample> {
  const atOne = await latencyAtOne(target, named.workload, { ...config, latencyMs: Math.min(config.latencyMs, 2_000) });
  // With a 20 ms upstream, concurrency is what carries throughput (Little's law): use 8× more.
  const connections = named.workload.profile === 's20' ? config.workloadConcurrency * 8 : config.workloadConcurrency;
  const loaded = await loadWithCpu(target, named.workload, connections, config.workloadStepS);
  return { atOne, loaded };
}

export async function warmUp(targets: Target[], config: BenchConfig): Promise<void> {
  if (config.warmupS <= 0) return;
  for (const target of targets) {
    await runLoad({ request: buildRequest(target, BASE), connections: 8, durationS: config.warmupS });
    await runLoad({ request: buildRequest(target, { ...BASE, stream: true, profile: 'sb' }), connections: 4, durationS: 1 });
  }
}
