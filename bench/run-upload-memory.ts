import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { freePort, launch, sleep } from './launch.ts';
import { ADMIN_TOKEN, GATEWAY_CPU } from './systems.ts';

/**
 * `npm run bench:upload`: memory of one Switchyard process (dist/main.js, SQLite) while a 25 MB
 * audio upload passes through it to an upstream, against the same process idle: the upload is
 * spooled to disk and streamed on, never held whole, so the resident set and the heap should stay
 * near idle. Also a 30 MB upload (over the 25 MiB limit), drained and answered 413. The gateway
 * reports `process.memoryUsage()` into a file (a preloaded module); the bench prints idle median,
 * peak during each upload, and the growth. Two runs: as it runs (every 25 ms: what the machine
 * sees, socket buffers read and dropped but not yet collected included), then with a forced GC
 * before each sample (every 100 ms, `--expose-gc`: what is still held). Sizes: `--small-mb 5 --mb 25 --over-mb 30`.
 */
const argv = process.argv.slice(2);
const arg = (flag: string, fallback: string) => (argv.includes(flag) ? (argv[argv.indexOf(flag) + 1] as string) : fallback);
const uploadMb = Number(arg('--mb', '25'));
const overMb = Number(arg('--over-mb', '30'));
/** A small upload beside the large one: growth that does not scale with the size is buffering, not the file held. */
const smallMb = Number(arg('--small-mb', '5'));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => process.stdout.write(`[bench:upload] ${line}\n`);
const MiB = 1_048_576;

/** An upstream that reads and discards a transcription upload, answering with its size in seconds. */
function startUpstream(): Promise<Server> {
  const server = createServer((incoming, response) => {
    let bytes = 0;
    incoming.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    incoming.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ text: `received ${bytes} bytes`, usage: { type: 'duration', seconds: 60 } }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface Sample {
  at: number;
  rss: number;
  heapUsed: number;
  external: number;
}

function readSamples(path: string, from: number, to: number): Sample[] {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [at, rss, heapUsed, external] = line.split(' ').map(Number) as [number, number, number, number];
      return { at, rss, heapUsed, external };
    })
    .filter((sample) => sample.at >= from && sample.at <= to);
}

/** A multipart body with one WAV-named file of `size` bytes, produced 64 KiB at a time (never whole in the client either). */
async function* multipartBody(boundary: string, size: number): AsyncGenerator<Buffer> {
  yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-bench\r\n`);
  yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="long.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x55);
  for (let sent = 0; sent < size; sent += chunk.length) yield sent + chunk.length <= size ? chunk : chunk.subarray(0, size - sent);
  yield Buffer.from(`\r\n--${boundary}--\r\n`);
}

async function upload(url: string, key: string, size: number): Promise<{ status: number; text: string }> {
  const boundary = 'bench-boundary-7MA4YWxkTrZu0gW';
  const response = await request(`${url}/v1/audio/transcriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Readable.from(multipartBody(boundary, size)),
  });
  return { status: response.statusCode, text: (await response.body.text()).slice(0, 160) };
}

function summarise(label: string, samples: Sample[], idle: Sample): string {
  if (samples.length === 0) return `${label}: no samples`;
  const peak = (pick: (sample: Sample) => number) => Math.max(...samples.map(pick));
  const mib = (bytes: number) => (bytes / MiB).toFixed(1);
  return (
    `${label}: ${samples.length} samples, peak rss ${mib(peak((s) => s.rss))} MiB (+${mib(peak((s) => s.rss) - idle.rss)}), ` +
    `peak heapUsed ${mib(peak((s) => s.heapUsed))} MiB (+${mib(peak((s) => s.heapUsed) - idle.heapUsed)}), ` +
    `peak external ${mib(peak((s) => s.external))} MiB (+${mib(peak((s) => s.external) - idle.external)})`
  );
}

function median(samples: Sample[]): Sample {
  const at = (pick: (sample: Sample) => number) => samples.map(pick).sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
  return { at: 0, rss: at((s) => s.rss), heapUsed: at((s) => s.heapUsed), external: at((s) => s.external) };
}

async function main(): Promise<void> {
  log('as it runs (sampled every 25 ms):');
  await measure(false);
  log('what is still held (a forced GC before each sample, every 100 ms):');
  await measure(true);
}

async function measure(collect: boolean): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-upload-bench-'));
  const samplesPath = join(directory, 'memory.log');
  const probe = join(directory, 'probe.mjs');
  const gc = collect ? 'globalThis.gc();' : '';
  writeFileSync(
    probe,
    `import { appendFileSync } from 'node:fs';\nsetInterval(() => { ${gc} const m = process.memoryUsage(); appendFileSync(${JSON.stringify(samplesPath)}, \`\${Date.now()} \${m.rss} \${m.heapUsed} \${m.external}\\n\`); }, ${collect ? 100 : 25}).unref();\n`,
  );
  const upstream = await startUpstream();
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  const port = await freePort();
  const gateway = await launch({
    name: 'switchyard',
    cwd: repoRoot,
    cpus: GATEWAY_CPU,
    args: [...(collect ? ['--expose-gc'] : []), '--import', probe, 'dist/main.js'],
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(directory, 'bench.db')}`,
      GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      WORKERS: '1',
    },
    ready: { url: `http://127.0.0.1:${port}`, path: '/healthz' },
  });
  try {
    const admin = async (path: string, body: unknown) => {
      const response = await fetch(`${gateway.url}/api/admin${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status >= 400) throw new Error(`admin POST ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, unknown>;
    };
    await admin('/channels', {
      name: 'bench-audio',
      provider: 'openai',
      baseUrl: `${upstreamUrl}/v1`,
      apiKey: 'sk-bench',
      models: ['whisper-bench'],
      groups: ['default'],
    });
    await admin('/prices', { model: 'whisper-bench', input: 0, output: 0, perSecond: 0.0001 });
    const key = (await admin('/keys', { name: 'bench', group: 'default', balance: 1_000 })).key as string;
    // Warm the route once with a small upload, then let the process settle.
    log(`warm-up: ${JSON.stringify(await upload(gateway.url, key, 256 * 1024))}`);
    await sleep(2_000);
    const idleFrom = Date.now();
    await sleep(3_000);
    const idle = median(readSamples(samplesPath, idleFrom, Date.now()));
    log(summarise('idle (median of 3 s)', readSamples(samplesPath, idleFrom, Date.now()), idle).replace(/\(\+[^)]*\)/g, ''));
    for (const [label, megabytes] of [
      [`${smallMb} MB upload`, smallMb],
      [`${uploadMb} MB upload`, uploadMb],
      [`${overMb} MB upload (over the 25 MiB limit)`, overMb],
    ] as const) {
      const from = Date.now();
      const answer = await upload(gateway.url, key, megabytes * 1_000_000);
      await sleep(200);
      log(`${label}: HTTP ${answer.status} in ${Date.now() - from - 200} ms (${answer.text})`);
      log(summarise(label, readSamples(samplesPath, from, Date.now()), idle));
    }
  } finally {
    await gateway.stop();
    upstream.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

await main();
