import { readFileSync } from 'node:fs';

/**
 * `node --import tsx bench/profile-summary.ts <file.cpuprofile> [top]`: where a `--cpu-prof`
 * profile's time went, as self time per package or source folder (node_modules/<pkg>,
 * dist/<folder>, node: internals, GC, idle) and the top functions by self time, and the
 * inclusive share of chosen entry points. For the BENCHMARKS.md "where the time goes" tables.
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [path, topArg] = process.argv.slice(2);
if (!path) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
const top = Number(topArg ?? 30);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const self = new Map<number, number>();
profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self.entries()].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);
const busy = total - idle;

function area(node: Node): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1] as string;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const dist = /\/dist\/(.*)\/[^/]+$/.exec(url);
  if (dist) return `src/${dist[1]}`;
  if (/\/dist\/[^/]+$/.test(url)) return 'src/';
  return url.replace(/^.*\//, '');
}

const areas = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, time] of self) {
  const node = byId.get(id) as Node;
  if (node.callFrame.functionName === '(idle)') continue;
  areas.set(area(node), (areas.get(area(node)) ?? 0) + time);
  const name = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules\/|dist\/)?/, '$1')}:${node.callFrame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + time);
}
const pct = (t: number) => `${((t / busy) * 100).toFixed(1)} %`;
process.stdout.write(`busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled\n\n| self time by area | share of busy |\n|---|---|\n`);
for (const [name, time] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`| ${name} | ${pct(time)} |\n`);
process.stdout.write(`\n| function (self) | share of busy |\n|---|---|\n`);
for (const [name, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`| ${name} | ${pct(time)} |\n`);

// Inclusive time of named entry points (each sample counted once per entry point on its stack).
const entries = (
  process.env.ENTRIES ??
  'runGeneration,recordGenerationUsage,observe,flush,insertMany,admitGeneration,relayChat,authenticateCaller,handleGeneration,routeHandler,runPreParsing,handleRequest,parseJson'
).split(',');
const inclusive = new Map<string, number>();
profile.samples.forEach((id, index) => {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const name = byId.get(at)?.callFrame.functionName ?? '';
    if (entries.includes(name) && !seen.has(name)) {
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0));
    }
  }
});
process.stdout.write(`\n| entry point (inclusive, synchronous part only) | share of busy |\n|---|---|\n`);
for (const name of entries) process.stdout.write(`| ${name} | ${pct(inclusive.get(name) ?? 0)} |\n`);
