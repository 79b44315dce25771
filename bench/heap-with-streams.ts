import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sleep } from './launch.ts';
import { rssMiB } from './proc-stats.ts';
import { openStreams } from './sse-client.ts';
import { startSystems } from './systems.ts';
import { buildRequest } from './targets.ts';
import { runMain } from './run-main.ts';

/**
 * `node --import tsx bench/heap-with-streams.ts [streams]`: Switchyard (as in the bench)
 * holding N open profile-C streams, a heap snapshot taken then (SIGUSR2, written by the gateway
 * into its working directory, the repository root), and
 * the snapshot summarised: retained size and count per constructor, and per 1,000 streams. For
 * finding what a stream holds that a proxy does not.
 */
const [streamsArg] = process.argv.slice(2);
const streams = Number(streamsArg ?? 1_000);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => process.stdout.write(`[heap ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

function summarise(path: string): Map<string, { count: number; bytes: number }> {
  const heap = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byName = new Map<string, { count: number; bytes: number }>();
  for (let index = 0; index < heap.nodes.length; index += width) {
    const type = types[heap.nodes[index + typeAt] as number] as string;
    const name = type === 'object' || type === 'closure' ? `${type}:${heap.strings[heap.nodes[index + nameAt] as number]}` : `(${type})`;
    const entry = byName.get(name) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += heap.nodes[index + sizeAt] as number;
    byName.set(name, entry);
  }
  return byName;
}

function endsJson(path: string, size: number): boolean {
  const tail = Buffer.alloc(2);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, tail, 0, 2, Math.max(0, size - 2));
  } finally {
    closeSync(fd);
  }
  return tail.toString('latin1') === ']}';
}

async function snapshot(pid: number): Promise<string> {
  const before = new Set(readdirSync(repoRoot).filter((name) => name.endsWith('.heapsnapshot')));
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 120_000; waited += 500) {
    await sleep(500);
    const created = readdirSync(repoRoot).find((name) => name.endsWith('.heapsnapshot') && !before.has(name));
    if (created) {
      // Written in pieces: done when its size stops changing and the JSON is closed (on a
      // loaded box a pause of 2 s mid-write happens).
      const path = `${repoRoot}/${created}`;
      let size = -1;
      for (;;) {
        await sleep(2_000);
        const now = statSync(path).size;
        if (now === size && endsJson(path, now)) return path;
        size = now;
      }
    }
  }
  throw new Error('no heap snapshot written');
}

/** Prints the per-stream table for two snapshots (idle, with `opened` streams). */
function report(idle: string, loaded: string, opened: number, rssLine: string): void {
  const a = summarise(idle);
  const b = summarise(loaded);
  const rows = [...b].map(([name, value]) => ({ name, count: value.count - (a.get(name)?.count ?? 0), bytes: value.bytes - (a.get(name)?.bytes ?? 0) }));
  rows.sort((x, y) => y.bytes - x.bytes);
  const heapDelta = rows.reduce((sum, row) => sum + row.bytes, 0);
  process.stdout.write(
    `\n${rssLine}${opened} open; JS heap objects +${(heapDelta / 1048576).toFixed(1)} MiB (${(heapDelta / opened / 1024).toFixed(1)} KiB per open stream)\n\n| constructor | objects per stream | bytes per stream |\n|---|---|---|\n`,
  );
  for (const row of rows.slice(0, 40)) process.stdout.write(`| ${row.name} | ${(row.count / opened).toFixed(1)} | ${Math.round(row.bytes / opened)} |\n`);
}

async function main(): Promise<void> {
  if (process.argv[2] === '--diff') {
    // `--diff <idle.heapsnapshot> <loaded.heapsnapshot> <open streams>`: only the table.
    const [, idle, loaded, opened] = process.argv.slice(2);
    report(idle as string, loaded as string, Number(opened), '');
    return;
  }
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const systems = await startSystems(repoRoot, log, { peer: false, nodeFlags: ['--heapsnapshot-signal=SIGUSR2'] });
  try {
    const target = systems.targets.find((candidate) => candidate.id === 'switchyard');
    if (!target) throw new Error('no switchyard target');
    const pid = systems.switchyard.pid;
    const idle = await snapshot(pid);
    const idleRss = rssMiB(pid);
    const open = openStreams({
      request: buildRequest(target, { profile: 'sc', requestBytes: 200, stream: true }),
      streams,
      rampMs: streams * 3,
      expectedDeltas: 120,
      upstreamGapMs: 500,
      timeoutMs: 120_000,
    });
    const deadline = performance.now() + streams * 3 + 30_000;
    while (open.started() < streams && performance.now() < deadline) await sleep(200);
    await sleep(2_000);
    const opened = open.started();
    const loadedRss = rssMiB(pid);
    const loaded = await snapshot(pid);
    open.abort();
    await Promise.race([open.finished, sleep(10_000)]);
    report(
      idle,
      loaded,
      opened,
      `${streams} open streams: RSS ${idleRss.toFixed(0)} → ${loadedRss.toFixed(0)} MiB (${(((loadedRss - idleRss) / opened) * 1000).toFixed(1)} MiB per 1,000 open); `,
    );
    process.stdout.write(`\nsnapshots: ${idle} ${loaded} (move or delete them)\n`);
  } finally {
    await systems.stop();
  }
}

runMain(main);
