import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { guardConnections } from '../../src/server/guard-connections.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/** Opens a TCP connection to 127.0.0.1:`port` from the loopback address `from` (Linux routes all of 127/8 to lo). */
function open(port: number, from: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Milliseconds until the server closes `socket`, or `limitMs` when it stays open that long. */
function closedWithin(socket: Socket, limitMs: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(limitMs), limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
    socket.on('error', () => {});
    socket.resume();
  });
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 23 item 9: one unauthenticated client could hold every socket (300 idle connections
 * against MAX_CONNECTIONS=300: no health check answered for 60 s). A new connection must now
 * send its first byte within SERVER_FIRST_BYTE_TIMEOUT_MS, and one address holds at most its
 * share of the cap (MAX_CONNECTIONS_PER_IP, default a quarter).
 */
describe('idle connections from one address', { timeout: 60_000 }, () => {
  let harness: Harness;
  let port: number;
  const held: Socket[] = [];

  before(async () => {
    harness = await startHarness({ serverLimits: { maxConnections: 300, firstByteTimeoutMs: 1_000 } });
    port = Number(new URL(harness.url).port);
  });
  after(async () => {
    for (const socket of held) socket.destroy();
    await harness?.close();
  });

  test('300 idle sockets from one address leave health checks from another answered', async () => {
    for (let index = 0; index < 300; index += 1) {
      const socket = await open(port, '127.0.0.2');
      socket.on('error', () => {});
      held.push(socket);
    }
    await settle(100);
    const stillOpen = held.filter((socket) => !socket.destroyed && socket.readyState === 'open').length;
    const answered = await Promise.all(
      Array.from({ length: 15 }, async () => {
        try {
          return (await fetch(`${harness.url}/healthz`, { signal: AbortSignal.timeout(5_000) })).status === 200;
        } catch {
          return false;
        }
      }),
    );
    assert.equal(answered.filter(Boolean).length, 15, `health checks answered with ${stillOpen} idle sockets open`);
  });

  test('an idle socket is closed after the first-byte timeout, not the 60 s headers timeout; a prompt request is served', async () => {
    const idle = await open(port, '127.0.0.3');
    const closedAfter = await closedWithin(idle, 10_000);
    assert.ok(closedAfter >= 900 && closedAfter < 5_000, `closed after ${closedAfter} ms`);

    const prompt = await open(port, '127.0.0.3');
    const reply = new Promise<string>((resolve) => prompt.once('data', (chunk) => resolve(String(chunk))));
    prompt.write('GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n');
    assert.match(await reply, /^HTTP\/1\.1 200/);
    await settle(1_500);
    assert.equal(prompt.destroyed, false, 'a keep-alive socket that sent its request stays open past the first-byte timeout');
    prompt.destroy();
  });
});

describe('the per-address share', { timeout: 30_000 }, () => {
  let server: Server;
  let port: number;
  const sockets: Socket[] = [];

  before(async () => {
    server = createServer((_request, response) => response.end('ok'));
    guardConnections(server, { firstByteTimeoutMs: 60_000, maxPerAddress: 3, trustedProxies: ['127.0.0.4'] });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const openMany = async (count: number, from: string) => {
    const opened: Socket[] = [];
    for (let index = 0; index < count; index += 1) opened.push(await open(port, from));
    sockets.push(...opened);
    const closed = await Promise.all(opened.map((socket) => closedWithin(socket, 300)));
    return closed.filter((ms) => ms < 300).length;
  };

  test('an address past its share is refused on accept; a socket it closes frees a place', async () => {
    assert.equal(await openMany(5, '127.0.0.5'), 2, 'two of five refused');
    sockets.at(-5)!.destroy();
    await settle(50);
    assert.equal(await openMany(1, '127.0.0.5'), 0, 'the freed place is taken again');
    assert.equal(await openMany(3, '127.0.0.6'), 0, 'another address has its own share');
  });

  test('a trusted proxy is exempt: all its clients arrive from its address', async () => {
    assert.equal(await openMany(10, '127.0.0.4'), 0);
  });
});
