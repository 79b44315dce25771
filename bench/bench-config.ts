/** How long and how hard each part of the bench runs: the full run, or `--smoke` (seconds, harness check only). */
export interface BenchConfig {
  smoke: boolean;
  /** The paced streaming profile: `sa` (64 × 20 ms), or `st` (8 × 20 ms) when smoking. */
  pacedProfile: 'sa' | 'st';
  rounds: number;
  warmupS: number;
  /** Concurrency-1 latency probe per target and round. */
  latencyMs: number;
  latencyMaxRequests: number;
  ladder: number[];
  ladderStepS: number;
  /** The concurrency at which CPU µs per request is read (a ladder step). */
  cpuConcurrency: number;
  workloadStepS: number;
  workloadConcurrency: number;
  /** Fixed-rate runs at these fractions of Switchyard's max RPS. */
  fixedRateFractions: number[];
  fixedRateS: number;
  ttfeStreams: number;
  gapStreams: number;
  chunkCpuStreams: number;
  chunkCpuRampMs: number;
  streamLadder: number[];
  streamRampMs: number;
  memoryStreams: number[];
  memorySettleMs: number;
  upstreamCeilingS: number;
  translateIterations: number;
  /** Whole box (WORKERS=2 + Redis): profile-C streams opened over the ramp. */
  wholeBoxStreams: number;
  wholeBoxRampMs: number;
  /** c=1 latency rounds are repeated (at most this many times) while the minimal proxy's own added p50 is far above its quiet value. */
  noisyRepeats: number;
  /** Fixed-rate soak at 50 % of Switchyard's max RPS (0 minutes = skipped: `--no-soak`). */
  soakMinutes: number;
  soakSliceS: number;
  soakIdleS: number;
}

export function benchConfig(argv: readonly string[]): BenchConfig {
  const smoke = argv.includes('--smoke');
  const streams8k = argv.includes('--streams-8k');
  if (smoke) {
    return {
      smoke,
      pacedProfile: 'st',
      rounds: 1,
      warmupS: 0,
      latencyMs: 200,
      latencyMaxRequests: 200,
      ladder: [8],
      ladderStepS: 0.5,
      cpuConcurrency: 8,
      workloadStepS: 0.5,
      workloadConcurrency: 4,
      fixedRateFractions: [0.5],
      fixedRateS: 0.5,
      ttfeStreams: 5,
      gapStreams: 2,
      chunkCpuStreams: 4,
      chunkCpuRampMs: 100,
      streamLadder: [8],
      streamRampMs: 100,
      memoryStreams: [20],
      memorySettleMs: 300,
      upstreamCeilingS: 0.5,
      translateIterations: 100,
      wholeBoxStreams: 20,
      wholeBoxRampMs: 200,
      noisyRepeats: 0,
      soakMinutes: 0.05,
      soakSliceS: 1,
      soakIdleS: 0.2,
    };
  }
  return {
    smoke,
    pacedProfile: 'sa',
    rounds: 3,
    warmupS: 2,
    latencyMs: 4_000,
    latencyMaxRequests: 20_000,
    ladder: [4, 8, 16, 32, 64, 128, 256],
    ladderStepS: 2,
    cpuConcurrency: 8,
    workloadStepS: 2,
    workloadConcurrency: 32,
    fixedRateFractions: [0.25, 0.5, 0.75],
    fixedRateS: 3,
    ttfeStreams: 200,
    gapStreams: 16,
    chunkCpuStreams: 100,
    chunkCpuRampMs: 2_000,
    streamLadder: [250, 500, 1_000, 2_000, 4_000],
    streamRampMs: 1_000,
    memoryStreams: streams8k ? [1_000, 4_000, 8_000] : [1_000, 4_000],
    memorySettleMs: 3_000,
    upstreamCeilingS: 3,
    translateIterations: 3_000,
    wholeBoxStreams: 10_000,
    wholeBoxRampMs: 10_000,
    noisyRepeats: 2,
    soakMinutes: argv.includes('--no-soak') ? 0 : 10,
    soakSliceS: 10,
    soakIdleS: 90,
  };
}
