import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { median } from './latency-probe.ts';
import { cpuMicros, rssMiB } from './proc-stats.ts';
import { pinLoadGenerator, startSystems } from './systems.ts';

/**
 * `npm run bench:websocket [-- --turns N] [--seconds S]`: Responses turns over a WebSocket beside
 * the same turns as streamed POST /v1/responses (keep-alive), on the same Switchyard process and
 * the same translated lane (Responses client → the bench's OpenAI chat upstream): time to first
 * event at c=1 (profile F: the first delta alone) and gateway CPU µs per turn at c=8 (profile B:
 * 200 deltas), HTTP and WebSocket interleaved per round. Same systems and pinning as `npm run bench`.
 */
const argv = process.argv.slice(2);
const arg = (flag: string, fallback: string) => (argv.includes(flag) ? (argv[argv.indexOf(flag) + 1] as string) : fallback);
const turnsAtOne = Number(arg('--turns', '200'));
const seconds = Number(arg('--seconds', '5'));
const rounds = Number(arg('--rounds', '3'));
const slowReaders = Number(arg('--slow-readers', '1000'));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => process.stdout.write(`[bench:websocket] ${line}\n`);

interface Turner {
  /** One turn; resolves with the µs to the first event once the turn completed. */
  turn(model: string): Promise<number>;
  close(): void;
}

function httpTurner(baseUrl: string, key: string): Turner {
  const dispatcher = new Agent({ connections: 1, pipelining: 1 });
  return {
    async turn(model) {
      const started = process.hrtime.bigint();
      const response = await request(`${baseUrl}/v1/responses`, {
        method: 'POST',
        dispatcher,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, input: 'Say something.', stream: true, store: false }),
      });
      let first = 0;
      for await (const chunk of response.body) {
        if (first === 0 && (chunk as Buffer).length > 0) first = Number(process.hrtime.bigint() - started) / 1_000;
      }
      if (response.statusCode !== 200) throw new Error(`HTTP turn answered ${response.statusCode}`);
      return first;
    },
    close: () => void dispatcher.close(),
  };
}

async function socketTurner(baseUrl: string, key: string): Promise<Turner> {
  const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${key}` }, perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let onMessage: ((text: string) => void) | undefined;
  ws.on('message', (data) => onMessage?.(data.toString()));
  return {
    turn(model) {
      return new Promise((resolve, reject) => {
        const started = process.hrtime.bigint();
        let first = 0;
        onMessage = (text) => {
          if (first === 0) first = Number(process.hrtime.bigint() - started) / 1_000;
          if (text.includes('"type":"response.completed"')) resolve(first);
          else if (text.startsWith('{"type":"error"')) reject(new Error(text));
        };
        ws.send(JSON.stringify({ type: 'response.create', model, input: 'Say something.', store: false }));
      });
    },
    close: () => ws.close(),
  };
}

async function main(): Promise<void> {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  if (!pinLoadGenerator()) log('taskset unavailable: the load generator is not pinned');
  // The slow-reader part opens more sockets on one key than the default cap allows.
  const systems = await startSystems(repoRoot, log, { peer: false, env: { RESPONSES_WEBSOCKET_MAX_PER_KEY: String(slowReaders + 100) } });
  const target = systems.targets.find((candidate) => candidate.id === 'switchyard');
  const key = target?.headers.authorization?.slice('Bearer '.length) ?? '';
  const baseUrl = systems.switchyard.url;
  const pid = systems.switchyard.pid;
  const make = { http: async () => httpTurner(baseUrl, key), websocket: () => socketTurner(baseUrl, key) } as const;
  const ttfe: Record<string, number[]> = { http: [], websocket: [] };
  const cpu: Record<string, number[]> = { http: [], websocket: [] };
  try {
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? (['http', 'websocket'] as const) : (['websocket', 'http'] as const);
      for (const transport of order) {
        // Time to first event at c=1, one connection or socket for all turns.
        const one = await make[transport]();
        for (let index = 0; index < 20; index++) await one.turn('oa-sf');
        const firsts: number[] = [];
        for (let index = 0; index < turnsAtOne; index++) firsts.push(await one.turn('oa-sf'));
        one.close();
        ttfe[transport]?.push(median(firsts));
        // CPU per turn at c=8: each client a connection or socket, turns back to back.
        const clients = await Promise.all(Array.from({ length: 8 }, () => make[transport]()));
        const stopAt = Date.now() + seconds * 1000;
        const before = cpuMicros(pid);
        let turns = 0;
        await Promise.all(
          clients.map(async (client) => {
            while (Date.now() < stopAt) {
              await client.turn('oa-sb');
              turns += 1;
            }
          }),
        );
        const used = cpuMicros(pid) - before;
        for (const client of clients) client.close();
        cpu[transport]?.push(used / turns);
        log(`round ${round} ${transport}: TTFE p50 ${median(firsts).toFixed(0)} µs at c=1, ${(used / turns).toFixed(0)} µs CPU/turn at c=8 (${turns} turns)`);
      }
    }
    // Slow readers: sockets that ask for a long reply and never read it. The gateway must hold
    // at most a bounded buffer per socket (the turn waits for drain), not the whole reply.
    const rssBefore = rssMiB(pid);
    const sockets: WebSocket[] = [];
    for (let index = 0; index < slowReaders; index++) {
      const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${key}` }, perMessageDeflate: false });
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      ws.send(JSON.stringify({ type: 'response.create', model: 'oa-l0', input: 'Say a lot.', store: false }));
      // Stop reading: the client's socket buffer fills, then the gateway's.
      (ws as unknown as { _socket: { pause(): void } })._socket.pause();
      sockets.push(ws);
    }
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const rssHeld = rssMiB(pid);
    log(
      `${slowReaders} slow readers holding unread replies: gateway RSS ${rssBefore.toFixed(0)} → ${rssHeld.toFixed(0)} MiB (${(((rssHeld - rssBefore) * 1024) / slowReaders).toFixed(1)} KiB per socket)`,
    );
    for (const ws of sockets) ws.terminate();
    for (const transport of ['http', 'websocket'] as const) {
      log(
        `${transport}: time to first event ${median(ttfe[transport] ?? []).toFixed(0)} µs (median of ${rounds} rounds), CPU ${median(cpu[transport] ?? []).toFixed(0)} µs per turn`,
      );
    }
  } finally {
    await systems.stop();
  }
}

await main();
