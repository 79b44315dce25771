import type { LoadResult } from './autocannon-run.ts';
import type { BenchConfig } from './bench-config.ts';
import type { LatencySample, LoadSample, WorkloadSample } from './scenarios.ts';
import type { StreamSummary } from './sse-client.ts';
import type { ChunkCpuSample, MemorySample } from './stream-scenarios.ts';
import type { ChunkCostRow } from './translate-chunk.ts';
import type { SoakResult } from './soak.ts';
import type { WholeBoxResult } from './whole-box.ts';

/** Everything one run measured, per target id and round; report.ts turns it into tables. */
export interface BenchResults {
  startedAt: string;
  durationS: number;
  command: string;
  config: BenchConfig;
  machine: { nproc: number; cpuModel: string; node: string; kernel: string; nofile: string; pinned: boolean; nice?: number };
  /** /proc/loadavg at the start and the end: other work on the box makes every figure noisier. */
  loadavg: { start: string; end: string };
  labels: Record<string, string>;
  notes: string[];
  upstreamCeiling: LoadResult | undefined;
  idleRssMiB: Record<string, number>;
  rssAfterLoadMiB: Record<string, number>;
  latencyAtOne: Record<string, LatencySample[]>;
  ladder: Record<string, Array<Record<number, LoadSample>>>;
  workloads: Record<string, Record<string, WorkloadSample[]>>;
  fixedRate: Record<string, Record<number, LoadSample[]>>;
  ttfe: Record<string, StreamSummary[]>;
  gaps: Record<string, StreamSummary[]>;
  chunkCpu: Record<string, ChunkCpuSample[]>;
  streamLadder: Record<string, Record<number, StreamSummary>>;
  memory: Record<string, MemorySample[]>;
  workers: string;
  /** WORKERS=2 + Redis, N concurrent streams (absent in runs before the whole-box run existed). */
  wholeBox?: WholeBoxResult;
  /** 10 minutes at 50 % of Switchyard's max RPS (absent when skipped). */
  soak?: SoakResult;
  /** /proc/loadavg (1-minute figure) when each phase began: the noise each figure was taken under. */
  phases?: Array<{ phase: string; at: string; load1: number }>;
  /** c=1 latency rounds taken again because the minimal proxy's own added p50 was far from its quiet value. */
  latencyRepeats?: Array<{ round: number; proxyAddedP50Us: number; kept: boolean }>;
  translate: ChunkCostRow[];
  /** A Server-Timing header on a reply to a caller who did not ask for one (there should be none). */
  overheadHeader: string | undefined;
  /** Median ms per Server-Timing phase over sequential requests that asked (X-Switchyard-Timing). */
  serverTiming?: { plain: Record<string, number>; stream: Record<string, number> };
}

export function emptyResults(config: BenchConfig, command: string): BenchResults {
  return {
    startedAt: new Date().toISOString(),
    durationS: 0,
    command,
    config,
    machine: { nproc: 0, cpuModel: '', node: process.version, kernel: '', nofile: '', pinned: false },
    loadavg: { start: '', end: '' },
    labels: {},
    notes: [],
    upstreamCeiling: undefined,
    idleRssMiB: {},
    rssAfterLoadMiB: {},
    latencyAtOne: {},
    ladder: {},
    workloads: {},
    fixedRate: {},
    ttfe: {},
    gaps: {},
    chunkCpu: {},
    streamLadder: {},
    memory: {},
    workers: 'not probed',
    phases: [],
    latencyRepeats: [],
    translate: [],
    overheadHeader: undefined,
  };
}

export function push<T>(record: Record<string, T[]>, key: string, value: T): void {
  (record[key] ??= []).push(value);
}
