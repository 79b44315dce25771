import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchConfig } from './bench-config.ts';
import { cpuPerChunk, ttfeAtOne } from './stream-scenarios.ts';
import { pinLoadGenerator, startSystems } from './systems.ts';
import { runMain } from './run-main.ts';

/**
 * `npm run bench:chunks [-- --rounds N] [--baseline <checkout>]`: only the full bench's streaming CPU figures, the
 * passthrough (OpenAI → OpenAI) and translated (OpenAI client → Anthropic upstream) lanes:
 * gateway CPU µs per delivered delta over profile-B streams, plus time to first event. Minutes
 * instead of the full run's half hour, for checking a change to the stream path before and after.
 * Same systems, pinning and profiles as `npm run bench`; no peer gateways are measured.
 * `--baseline <checkout>` also runs that checkout's built `dist/` on both lanes, interleaved, and
 * prints this build's CPU per chunk over the baseline's within each round.
 */
const argv = process.argv.slice(2);
const roundsAt = argv.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(argv[roundsAt + 1]) : 5;
const baselineAt = argv.indexOf('--baseline');
const baselineDir = baselineAt >= 0 ? (argv[baselineAt + 1] as string) : undefined;
const config = benchConfig([]);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => process.stdout.write(`[bench:chunks ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
}

async function main(): Promise<void> {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  // The clients share CPU 0 with the upstream, as in `npm run bench` (gateways on CPU 1).
  if (!pinLoadGenerator()) process.stdout.write('taskset unavailable: the load generator is not pinned\n');
  const systems = await startSystems(repoRoot, log, { peer: false, ...(baselineDir ? { baseline: baselineDir } : {}) });
  try {
    const lanes = [
      { id: 'switchyard', lane: 'passthrough (OpenAI → OpenAI)' },
      { id: 'sy-oa-an', lane: 'translated (OpenAI → Anthropic)' },
      ...(baselineDir
        ? [
            { id: 'base', lane: 'baseline passthrough (OpenAI → OpenAI)' },
            { id: 'base-oa-an', lane: 'baseline translated (OpenAI → Anthropic)' },
          ]
        : []),
    ];
    const samples: Record<string, { cpu: number[]; ttfe: number[] }> = {};
    // Warm the JIT on both lanes before measuring.
    for (const { id } of lanes) {
      const target = systems.targets.find((candidate) => candidate.id === id);
      if (!target) throw new Error(`no target ${id}`);
      await cpuPerChunk(target, { ...config, chunkCpuStreams: 50, chunkCpuRampMs: 500 });
    }
    for (let round = 1; round <= rounds; round++) {
      for (const { id } of lanes) {
        const target = systems.targets.find((candidate) => candidate.id === id);
        if (!target) throw new Error(`no target ${id}`);
        const chunk = await cpuPerChunk(target, config);
        const ttfe = await ttfeAtOne(target, { ...config, ttfeStreams: 100 });
        if (chunk.summary.clean !== chunk.summary.streams) throw new Error(`${id}: ${chunk.summary.streams - chunk.summary.clean} streams not clean`);
        const entry = (samples[id] ??= { cpu: [], ttfe: [] });
        entry.cpu.push(chunk.cpuUsPerChunk);
        entry.ttfe.push(ttfe.ttfeP50Us);
        log(`round ${round} ${id}: ${chunk.cpuUsPerChunk.toFixed(2)} µs CPU per chunk, TTFE p50 ${(ttfe.ttfeP50Us / 1000).toFixed(2)} ms`);
      }
    }
    process.stdout.write('\n| lane | CPU µs per chunk (median of rounds) | all rounds | TTFE p50 ms (median) |\n| --- | --- | --- | --- |\n');
    for (const { id, lane } of lanes) {
      const entry = samples[id] as { cpu: number[]; ttfe: number[] };
      process.stdout.write(
        `| ${lane} | ${median(entry.cpu).toFixed(2)} | ${entry.cpu.map((value) => value.toFixed(2)).join(' / ')} | ${(median(entry.ttfe) / 1000).toFixed(2)} |\n`,
      );
    }
    if (baselineDir) {
      process.stdout.write(`\n| this build ÷ baseline (${baselineDir}) | CPU per chunk, median (rounds) |\n| --- | --- |\n`);
      for (const [mine, theirs] of [
        ['switchyard', 'base'],
        ['sy-oa-an', 'base-oa-an'],
      ] as const) {
        const own = samples[mine]?.cpu ?? [];
        const base = samples[theirs]?.cpu ?? [];
        const per = own.map((value, round) => value / (base[round] ?? Number.NaN));
        process.stdout.write(`| ${mine} ÷ ${theirs} | ${median(per).toFixed(3)} (${per.map((value) => value.toFixed(2)).join(' ')}) |\n`);
      }
    }
  } finally {
    await systems.stop();
  }
}

runMain(main);
