import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, launch, sleep } from './launch.ts';
import { runMain } from './run-main.ts';
import { ADMIN_TOKEN, configureSwitchyard, GATEWAY_CPU, pinLoadGenerator } from './systems.ts';
import { processTree } from './proc-stats.ts';

/**
 * `node --import tsx bench/run-idle-rss.ts [--rounds N] [--at 1,3,5,10] [--baseline <checkout>]
 * [--flags "<node flags>"] [--baseline-flags "<node flags>"]`: cold idle RSS as `npm run bench`
 * reads it (`node dist/main.js` pinned to the gateway core, SQLite, configured through the admin
 * API with the bench's two channels, prices and key), sampled at each `--at` second after the
 * gateway first answered. With `--baseline` (a checkout whose `dist/` is built) the two builds
 * start alternately, one at a time, so each pair shares the same minute of a noisy box.
 * Prints VmRSS, and its file-backed and anonymous parts, in MiB.
 */
const argv = process.argv.slice(2);
const arg = (flag: string, fallback: string) => (argv.includes(flag) ? (argv[argv.indexOf(flag) + 1] as string) : fallback);
const words = (flag: string) => arg(flag, '').split(' ').filter(Boolean);
const rounds = Number(arg('--rounds', '3'));
const at = arg('--at', '1,3,5,10').split(',').map(Number);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const baselineDir = argv.includes('--baseline') ? resolve(arg('--baseline', '')) : undefined;

interface Build {
  name: string;
  cwd: string;
  flags: string[];
}

/** VmRSS, RssFile and RssAnon of the whole process tree, in MiB. */
function memory(pid: number): { rss: number; file: number; anon: number } {
  const sum = { rss: 0, file: 0, anon: 0 };
  for (const member of processTree(pid)) {
    try {
      const status = readFileSync(`/proc/${member}/status`, 'utf8');
      const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
      sum.rss += kib('VmRSS');
      sum.file += kib('RssFile') + kib('RssShmem');
      sum.anon += kib('RssAnon');
    } catch {
      // Gone.
    }
  }
  return sum;
}

async function measure(build: Build): Promise<string> {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-idle-rss-'));
  const port = await freePort();
  const gateway = await launch({
    name: build.name,
    cwd: build.cwd,
    cpus: GATEWAY_CPU,
    args: [...build.flags, 'dist/main.js'],
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(directory, 'idle.db')}`,
      GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      WORKERS: '1',
    },
    ready: { url: `http://127.0.0.1:${port}`, path: '/healthz' },
  });
  const started = performance.now();
  try {
    // The bench's upstream is never called while idle, so any address does.
    await configureSwitchyard(gateway.url, 'http://127.0.0.1:9');
    const cells: string[] = [];
    for (const second of at) {
      await sleep(Math.max(0, started + second * 1_000 - performance.now()));
      const { rss, file, anon } = memory(gateway.pid);
      cells.push(`${second}s ${rss.toFixed(1)} (file ${file.toFixed(1)}, anon ${anon.toFixed(1)})`);
    }
    return `${build.name.padEnd(9)} ${cells.join('  ')}`;
  } finally {
    await gateway.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  pinLoadGenerator();
  const builds: Build[] = [{ name: 'this', cwd: repoRoot, flags: words('--flags') }];
  if (baselineDir) builds.push({ name: 'baseline', cwd: baselineDir, flags: words('--baseline-flags') });
  process.stdout.write(`load ${readFileSync('/proc/loadavg', 'utf8').trim()}; VmRSS MiB at seconds after the first answer\n`);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) process.stdout.write(`round ${round + 1} ${await measure(build)}\n`);
  }
}

runMain(main);
