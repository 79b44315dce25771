import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runLoad } from './autocannon-run.ts';
import { BASE } from './scenarios.ts';
import { startSystems } from './systems.ts';
import { buildRequest } from './targets.ts';
import { runMain } from './run-main.ts';

/**
 * `node --import tsx bench/syscalls-per-request.ts [--targets proxy,switchyard] [--seconds S] [--baseline <checkout>]`:
 * system calls per request under c=8 load (passthrough, 0.2 KB body), from `strace -c -f` attached
 * to each gateway for the load's duration, divided by the requests completed. Needs strace and
 * ptrace rights. strace slows the traced process a lot; only the counts mean anything.
 */
const argv = process.argv.slice(2);
const arg = (flag: string, fallback: string) => (argv.includes(flag) ? (argv[argv.indexOf(flag) + 1] as string) : fallback);
const seconds = Number(arg('--seconds', '3'));
const baselineDir = argv.includes('--baseline') ? arg('--baseline', '') : undefined;
const ids = arg('--targets', baselineDir ? 'proxy,switchyard,base' : 'proxy,switchyard').split(',');
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

async function main(): Promise<void> {
  const systems = await startSystems(repoRoot, (line) => process.stdout.write(`${line}\n`), { peer: false, ...(baselineDir ? { baseline: baselineDir } : {}) });
  try {
    for (const id of ids) {
      const target = systems.targets.find((candidate) => candidate.id === id);
      if (!target?.pid) throw new Error(`no target ${id}`);
      await runLoad({ request: buildRequest(target, BASE), connections: 8, durationS: 2 });
      const strace = spawn('strace', ['-c', '-f', '-p', String(target.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
      let report = '';
      strace.stderr.on('data', (chunk: Buffer) => (report += chunk.toString()));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const result = await runLoad({ request: buildRequest(target, BASE), connections: 8, durationS: seconds });
      strace.kill('SIGINT');
      await new Promise((resolve) => strace.on('close', resolve));
      process.stdout.write(`\n## ${id}: ${result.completed} requests\n| syscall | calls | per request |\n|---|---|---|\n`);
      for (const line of report.split('\n')) {
        const cells = line.trim().split(/\s+/);
        if (cells.length < 5 || !/^[0-9.]+$/.test(cells[0] as string)) continue;
        const name = cells[cells.length - 1] as string;
        const calls = Number(cells[3]);
        process.stdout.write(`| ${name} | ${calls} | ${(calls / result.completed).toFixed(2)} |\n`);
      }
    }
  } finally {
    await systems.stop();
  }
}

runMain(main);
