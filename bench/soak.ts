import type { BenchConfig } from './bench-config.ts';
import { sleep } from './launch.ts';
import { rssMiB } from './proc-stats.ts';
import { BASE, loadWithCpu } from './scenarios.ts';
import type { Target } from './targets.ts';

export interface SoakResult {
  rate: number;
  minutes: number;
  /** RSS after each slice of load (MiB), in order. */
  rssMiB: number[];
  /** How many of the first slices are warm-up (not held to the flatness bound). */
  warmupSlices: number;
  rssBeforeMiB: number;
  /** RSS at the end of the idle period after the load (the last of `rssIdleSamplesMiB`). */
  rssAfterIdleMiB: number;
  /** RSS every 5 s of the idle period after the load (absent in runs before 2026-11-24 07:00). */
  rssIdleSamplesMiB?: number[];
  p99Ms: number[];
  errors: number;
  cpuUsPerRequest: number[];
}

/** Fixed-rate load at `rate` for the configured minutes, in slices, reading the gateway's RSS after each; then idle. */
export async function soak(target: Target, rate: number, config: BenchConfig, log: (line: string) => void): Promise<SoakResult> {
  const pid = target.pid as number;
  const slices = Math.max(1, Math.round((config.soakMinutes * 60) / config.soakSliceS));
  const result: SoakResult = {
    rate,
    minutes: config.soakMinutes,
    rssMiB: [],
    warmupSlices: Math.min(slices - 1, Math.ceil(60 / config.soakSliceS)),
    rssBeforeMiB: rssMiB(pid),
    rssAfterIdleMiB: Number.NaN,
    rssIdleSamplesMiB: [],
    p99Ms: [],
    errors: 0,
    cpuUsPerRequest: [],
  };
  for (let slice = 0; slice < slices; slice++) {
    const sample = await loadWithCpu(target, BASE, 64, config.soakSliceS, rate);
    result.rssMiB.push(rssMiB(pid));
    result.p99Ms.push(sample.p99Ms);
    result.cpuUsPerRequest.push(sample.cpuUsPerRequest);
    result.errors += sample.errors + sample.non2xx;
    if (slice % 6 === 5) log(`  soak ${slice + 1}/${slices}: RSS ${result.rssMiB.at(-1)?.toFixed(0)} MiB, p99 ${sample.p99Ms} ms`);
  }
  // V8 gives memory back only once its memory reducer sees the process idle (a timer of ~8 s after
  // a full collection, then up to three collections): sample the whole idle period, not one point.
  const idleEnd = performance.now() + config.soakIdleS * 1000;
  while (performance.now() < idleEnd) {
    await sleep(Math.min(5_000, Math.max(0, idleEnd - performance.now())));
    result.rssIdleSamplesMiB?.push(rssMiB(pid));
  }
  result.rssAfterIdleMiB = rssMiB(pid);
  return result;
}
