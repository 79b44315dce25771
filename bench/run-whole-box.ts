import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchConfig } from './bench-config.ts';
import { launch } from './launch.ts';
import { runMain } from './run-main.ts';
import { LOAD_CPU } from './systems.ts';
import { runWholeBox } from './whole-box.ts';

/**
 * `node --import tsx bench/run-whole-box.ts [--streams N] [--ramp-ms M]`: only the full bench's
 * whole-box phase (WORKERS=2 + Redis, N profile-C streams opened over M ms; 10,000 over 10 s by
 * default), with the ramp's progress and the kernel's listen-queue overflows. Minutes instead of
 * the full run's half hour.
 */
const argv = process.argv.slice(2);
const arg = (flag: string, fallback: string) => (argv.includes(flag) ? (argv[argv.indexOf(flag) + 1] as string) : fallback);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => process.stdout.write(`[bench:whole-box ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

async function main(): Promise<void> {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const config = { ...benchConfig([]), wholeBoxStreams: Number(arg('--streams', '10000')), wholeBoxRampMs: Number(arg('--ramp-ms', '10000')) };
  const upstream = await launch({
    name: 'bench-upstream',
    cwd: repoRoot,
    cpus: LOAD_CPU,
    args: ['--import', 'tsx', 'bench/bench-upstream.ts', '--port', '0'],
    ready: { printsUrl: true },
  });
  try {
    const result = await runWholeBox(repoRoot, upstream.url, config, log);
    const { summary, ...rest } = result;
    log(JSON.stringify(rest));
    log(JSON.stringify(summary));
  } finally {
    await upstream.stop();
  }
}

runMain(main);
