import type { BenchConfig } from './bench-config.ts';
import { sleep } from './launch.ts';
import { cpuMicros, rssMiB } from './proc-stats.ts';
import { openStreams, type StreamSummary } from './sse-client.ts';
import { buildRequest, type Target } from './targets.ts';
import { PROFILES } from './upstream-payloads.ts';

const B = PROFILES.sb as { deltas: number; gapMs: number };
const C = PROFILES.sc as { deltas: number; gapMs: number };
const F = PROFILES.sf as { deltas: number; gapMs: number };

const paced = (config: BenchConfig) => PROFILES[config.pacedProfile] as { deltas: number; gapMs: number };

function streamRequest(target: Target, profile: 'sa' | 'sb' | 'sc' | 'sf' | 'st') {
  return buildRequest(target, { profile, requestBytes: 200, stream: true });
}

/**
 * Time to first event at concurrency 1: profile F streams (the first delta alone, then two more
 * 5 ms apart) one after another. Not profile B: its 200 deltas come back to back, and the
 * client, which shares a core with the upstream, first reads when the burst is over, so its
 * first read held all 200 deltas, directly and through any gateway alike, and "time to first
 * event" was the time to forward the whole burst (per-chunk cost × 200), not the first event.
 */
export function ttfeAtOne(target: Target, config: BenchConfig): Promise<StreamSummary> {
  return openStreams({
    request: streamRequest(target, 'sf'),
    streams: config.ttfeStreams,
    rampMs: 0,
    sequential: true,
    expectedDeltas: F.deltas,
    upstreamGapMs: F.gapMs,
    timeoutMs: 10_000,
  }).finished;
}

/** Inter-delta gaps with profile A (64 × 20 ms), a handful of streams at once. */
export function gapsProfileA(target: Target, config: BenchConfig): Promise<StreamSummary> {
  return openStreams({
    request: streamRequest(target, config.pacedProfile),
    streams: config.gapStreams,
    rampMs: 400,
    expectedDeltas: paced(config).deltas,
    upstreamGapMs: paced(config).gapMs,
    timeoutMs: 10_000,
  }).finished;
}

export interface ChunkCpuSample {
  summary: StreamSummary;
  cpuUsPerChunk: number;
}

/** CPU per streamed delta: profile B streams opened at a steady rate, gateway CPU / deltas delivered. */
export async function cpuPerChunk(target: Target, config: BenchConfig): Promise<ChunkCpuSample> {
  const before = target.pid === undefined ? 0 : cpuMicros(target.pid);
  const summary = await openStreams({
    request: streamRequest(target, 'sb'),
    streams: config.chunkCpuStreams,
    rampMs: config.chunkCpuRampMs,
    expectedDeltas: B.deltas,
    upstreamGapMs: 0,
    timeoutMs: 30_000,
  }).finished;
  const cpu = target.pid === undefined ? Number.NaN : cpuMicros(target.pid) - before;
  return { summary, cpuUsPerChunk: summary.deltasDelivered > 0 ? cpu / summary.deltasDelivered : Number.NaN };
}

/** Concurrent profile-A streams, one step of the ladder. */
export function streamsAtOnce(target: Target, streams: number, config: BenchConfig): Promise<StreamSummary> {
  return openStreams({
    request: streamRequest(target, config.pacedProfile),
    streams,
    rampMs: config.streamRampMs,
    expectedDeltas: paced(config).deltas,
    upstreamGapMs: paced(config).gapMs,
    timeoutMs: 30_000,
  }).finished;
}

/** A ladder step passes with zero dropped deltas, no errors, no buffering, and p99 gap < 10× pacing. */
export function streamStepPassed(summary: StreamSummary, config: BenchConfig): boolean {
  return summary.clean === summary.streams && summary.gapP99Us < paced(config).gapMs * 10 * 1000;
}

export interface MemorySample {
  streams: number;
  opened: number;
  rssMiB: number;
  idleRssMiB: number;
  perThousandMiB: number;
  /** Gateway CPU while holding the streams (fraction of one core). */
  coreUtilisation: number;
  summary: StreamSummary | undefined;
}

/** Holds N profile-C streams (2 deltas/s), reads the gateway's RSS once all are open, then lets go. */
export async function memoryWithStreams(target: Target, streams: number, config: BenchConfig): Promise<MemorySample> {
  const pid = target.pid as number;
  const idle = rssMiB(pid);
  const open = openStreams({
    request: streamRequest(target, 'sc'),
    streams,
    rampMs: Math.max(config.streamRampMs, streams * 2),
    expectedDeltas: C.deltas,
    upstreamGapMs: C.gapMs,
    timeoutMs: 120_000,
  });
  const deadline = performance.now() + Math.max(5_000, streams * 5);
  while (open.started() < streams && performance.now() < deadline) await sleep(100);
  await sleep(config.memorySettleMs);
  const cpuBefore = cpuMicros(pid);
  const windowStart = performance.now();
  await sleep(config.smoke ? 200 : 2_000);
  const coreUtilisation = (cpuMicros(pid) - cpuBefore) / ((performance.now() - windowStart) * 1000);
  const rss = rssMiB(pid);
  const opened = open.started();
  open.abort();
  const summary = await Promise.race([open.finished, sleep(20_000).then(() => undefined)]);
  return { streams, opened, rssMiB: rss, idleRssMiB: idle, perThousandMiB: ((rss - idle) / Math.max(1, opened)) * 1000, coreUtilisation, summary };
}
