/**
 * `node --import tsx scripts/walk-request.ts [--list]`: the route one streamed
 * `POST /v1/chat/completions` (OpenAI client → Anthropic channel) takes through src/, counted the
 * same way before and after a change to the house (issue 25).
 *
 * How: a real gateway and the provider simulator run in this process (test/helpers/gateway-harness.ts).
 * A first request warms every module up; a second, under V8's precise coverage, names the src/
 * functions the request runs; a third runs with a logpoint (a breakpoint whose condition records the
 * function and answers false, so nothing pauses) at the start of each of them, which gives the
 * functions entered in call order. From that sequence: the files visited, the folders (first path
 * segment under src/, `(root)` for a file directly in src/), and the folder crossings counted two
 * ways: along the route (each file once, in the order the request first enters it: what a reader
 * following the request opens) and along every call (two consecutive function entries in different
 * folders), each with how many go back into a folder the walk already left.
 * The same request with 10 more streamed words (the simulator sends one delta per word) gives the
 * cost of one stream chunk: the extra crossings / 10, and the files and folders whose functions run
 * once more per chunk. Test helpers and the simulator are not counted (only src/).
 */
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { startHarness } from '../test/helpers/gateway-harness.ts';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const list = process.argv.includes('--list');

interface Entry {
  file: string;
  fn: string;
}
const walk: string[] = [];
(globalThis as { __walk?: string[] }).__walk = walk;

const session = new Session();
session.connect();
const scripts = new Map<string, string>();
session.on('Debugger.scriptParsed', ({ params }) => {
  if (params.url.startsWith('file://') && fileURLToPath(params.url).startsWith(SRC)) scripts.set(params.scriptId, fileURLToPath(params.url).slice(SRC.length));
});
await session.post('Debugger.enable');
await session.post('Profiler.enable');

const harness = await startHarness();
await harness.addChannel({ provider: 'anthropic', models: ['claude-walk'] });
const { key } = await harness.addKey();

async function streamedRequest(words: number): Promise<void> {
  harness.simulator.enqueue({ text: Array.from({ length: words }, (_, index) => `w${index}`).join(' '), usage: { input: 10, output: words } });
  const response = await fetch(`${harness.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'claude-walk', stream: true, max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }),
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('[DONE]')) throw new Error(`walk request failed: ${response.status} ${text.slice(0, 300)}`);
  // The usage row is written after the reply ends: give the writer its turn.
  await new Promise((resolve) => setTimeout(resolve, 300));
}

await streamedRequest(4);
await streamedRequest(4);

// Which src/ functions one request runs.
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await session.post('Profiler.takePreciseCoverage');
await streamedRequest(4);
const { result: coverage } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');

const entries = new Map<string, Entry>();
let logpoints = 0;
for (const script of coverage) {
  const file = scripts.get(script.scriptId);
  if (file === undefined) continue;
  const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId: script.scriptId });
  for (const fn of script.functions) {
    const range = fn.ranges[0];
    if (!range || range.count === 0 || range.startOffset === 0) continue;
    const before = scriptSource.slice(0, range.startOffset);
    const lineNumber = before.split('\n').length - 1;
    const columnNumber = range.startOffset - (before.lastIndexOf('\n') + 1);
    const id = String(logpoints++);
    entries.set(id, { file, fn: fn.functionName || `(anonymous:${lineNumber + 1})` });
    await session
      .post('Debugger.setBreakpoint', {
        location: { scriptId: script.scriptId, lineNumber, columnNumber },
        condition: `globalThis.__walk.push(${JSON.stringify(id)}), false`,
      })
      .catch(() => undefined);
  }
}

interface Count {
  files: Set<string>;
  folders: Set<string>;
  crossings: number;
  backInto: number;
  sequence: string[];
  route: { crossings: number; backInto: number };
}
const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '(root)');

/** Crossings between consecutive folders of a list of files (and how many go back into a folder already left). */
function crossingsOf(files: readonly string[]): { crossings: number; backInto: number } {
  const left = new Set<string>();
  let crossings = 0;
  let backInto = 0;
  for (let index = 1; index < files.length; index += 1) {
    const from = folderOf(files[index - 1] as string);
    const to = folderOf(files[index] as string);
    if (from === to) continue;
    crossings += 1;
    if (left.has(to)) backInto += 1;
    left.add(from);
  }
  return { crossings, backInto };
}
function count(ids: string[]): Count {
  const files = new Set<string>();
  const folders = new Set<string>();
  const left = new Set<string>();
  const sequence: string[] = [];
  let crossings = 0;
  let backInto = 0;
  let previous: string | undefined;
  for (const id of ids) {
    const entry = entries.get(id);
    if (!entry) continue;
    files.add(entry.file);
    const folder = folderOf(entry.file);
    folders.add(folder);
    if (sequence.at(-1) !== entry.file) sequence.push(entry.file);
    if (previous !== undefined && previous !== folder) {
      crossings += 1;
      if (left.has(folder)) backInto += 1;
      left.add(previous);
    }
    previous = folder;
  }
  // The route as a reader walks it: each file once, in the order the request first enters it.
  return { files, folders, crossings, backInto, sequence, route: crossingsOf([...files]) };
}

walk.length = 0;
await streamedRequest(4);
const short = count(walk.splice(0));
await streamedRequest(14);
const long = count(walk.splice(0));
await harness.close();
session.disconnect();

// Per chunk: the files and folders whose functions run more often with 10 more chunks.
const perChunkFiles = new Set<string>();
const shortCalls = new Map<string, number>();
const longCalls = new Map<string, number>();
for (const file of short.sequence) shortCalls.set(file, (shortCalls.get(file) ?? 0) + 1);
for (const file of long.sequence) longCalls.set(file, (longCalls.get(file) ?? 0) + 1);
for (const [file, calls] of longCalls) if (calls >= (shortCalls.get(file) ?? 0) + 10) perChunkFiles.add(file);
const perChunkFolders = new Set([...perChunkFiles].map((file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '(root)')));

if (list) process.stdout.write(`${[...short.files].join('\n')}\n\n`);
process.stdout.write(
  [
    `files visited: ${short.files.size}`,
    `folders: ${short.folders.size} (${[...short.folders].sort().join(', ')})`,
    `the route (each file once, in order of first entry): ${short.route.crossings} folder crossings (${short.route.backInto} back into a folder already left)`,
    `every call: ${short.crossings} folder crossings (${short.backInto} back into a folder already left)`,
    `per stream chunk: ${((long.crossings - short.crossings) / 10).toFixed(1)} crossings, ${perChunkFiles.size} files in ${perChunkFolders.size} folders (${[...perChunkFiles].sort().join(', ')})`,
    '',
  ].join('\n'),
);
