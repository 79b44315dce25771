import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chatCompletion } from './hostile-upstream.ts';
import { startSecurityHarness, type SecurityHarness } from './security-harness.ts';

/** Issue 14's weaknesses that live outside the request pipeline, each replayed against a real gateway. */

describe('admin token brute force', () => {
  let h: SecurityHarness;
  before(async () => {
    h = await startSecurityHarness();
  });
  after(() => h.close());

  test('failed admin auth is throttled per address: 429 with retry-after after 10 failures, for the right token too', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 30; index += 1) {
      const response = await fetch(`${h.url}/api/admin/keys`, { headers: { authorization: `Bearer guess-${index}` } });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.deepEqual(statuses.slice(10), Array(20).fill(429));
    // While blocked, even the right token is refused, so the throttle does not tell right from wrong.
    const right = await fetch(`${h.url}/api/admin/keys`, { headers: { authorization: 'Bearer sya-test-admin-token-0123456789' } });
    assert.equal(right.status, 429);
    assert.ok(Number(right.headers.get('retry-after')) >= 1);
  });
});

describe('admin inputs: allowedIps', () => {
  let h: SecurityHarness;
  before(async () => {
    h = await startSecurityHarness();
  });
  after(() => h.close());

  test('every malformed allowedIps entry is a 400 naming it, on create and on patch', async () => {
    const { id } = await h.addKey();
    for (const bad of ['999.1.1.1', 'abc', '1.2.3.4/33', '127.1', '::g', '10.0.0.0/', '']) {
      const created = await h.admin('POST', '/keys', { name: `k-${bad}`, group: 'default', allowedIps: ['10.0.0.1', bad] }, 400);
      assert.equal(created.error.param, 'allowedIps.1');
      assert.ok(created.error.message.includes(JSON.stringify(bad)), created.error.message);
      await h.admin('PATCH', `/keys/${id}`, { allowedIps: [bad] }, 400);
    }
    await h.admin('PATCH', `/keys/${id}`, { allowedIps: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7'] }, 200);
  });
});

describe('model existence is not disclosed across groups', () => {
  let h: SecurityHarness;
  before(async () => {
    h = await startSecurityHarness();
    await h.admin('POST', '/groups', { name: 'other' });
    await h.addHostileChannel({ models: ['their-model'], groups: ['other'] });
    await h.addHostileChannel({ models: ['our-model'] });
    h.upstream.answer((request) => ({ body: chatCompletion((request.body as any).model, { prompt: 1, completion: 1 }) }));
  });
  after(() => h.close());

  test("another group's model and a model that does not exist get the same answer", async () => {
    const { key } = await h.addKey();
    const theirs = await h.chat(key, { model: 'their-model', messages: [{ role: 'user', content: 'hi' }] });
    const none = await h.chat(key, { model: 'zzzz-none', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(theirs.status, none.status);
    assert.equal(theirs.json.error.code, none.json.error.code);
    const shape = (message: string, model: string) => message.replace(model, 'X').replace(/\(request id: [^)]*\)/, '');
    assert.equal(shape(theirs.json.error.message, 'their-model'), shape(none.json.error.message, 'zzzz-none'));
    const diagnosis = await (await fetch(`${h.url}/api/diagnose?model=their-model`, { headers: { authorization: `Bearer ${key}` } })).text();
    assert.doesNotMatch(diagnosis, /other groups|spelled correctly/);
  });

  test('the helpful message comes back when the operator opts in (REVEAL_OTHER_GROUP_MODELS)', async () => {
    const open = await startSecurityHarness({ revealOtherGroupModels: true });
    try {
      await open.admin('POST', '/groups', { name: 'other' });
      await open.addHostileChannel({ models: ['their-model'], groups: ['other'] });
      const { key } = await open.addKey();
      const theirs = await open.chat(key, { model: 'their-model', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(theirs.status, 403);
      assert.equal(theirs.json.error.code, 'model_not_in_group');
    } finally {
      await open.close();
    }
  });
});

describe('slow and numerous clients', () => {
  let h: SecurityHarness;
  before(async () => {
    h = await startSecurityHarness({
      serverLimits: {
        headersTimeoutMs: 1_000,
        bodyTimeoutMs: 2_000,
        keepAliveTimeoutMs: 1_000,
        maxConnections: 20,
        maxConnectionsPerIp: 20,
        listenBacklog: 511,
      },
    });
  });
  after(() => h.close());

  const port = () => Number(new URL(h.url).port);
  const open = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port(), '127.0.0.1', () => resolve(socket));
      socket.on('error', reject);
    });
  /** Resolves with how long the server took to close the socket (ms), or Infinity after `limitMs`. */
  const closedWithin = (socket: Socket, limitMs: number) =>
    new Promise<number>((resolve) => {
      const started = performance.now();
      const timer = setTimeout(() => resolve(Number.POSITIVE_INFINITY), limitMs);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(performance.now() - started);
      });
      socket.resume();
    });

  test('a header sent a byte at a time is cut by the headers timeout', async () => {
    const socket = await open();
    socket.write('GET /healthz HTTP/1.1\r\n');
    const drip = setInterval(() => socket.write('X'), 200);
    const closedAfter = await closedWithin(socket, 6_000);
    clearInterval(drip);
    socket.destroy();
    assert.ok(closedAfter < 6_000, 'the server closed the drip-fed connection');
  });

  test('a body sent a byte at a time is cut by the request timeout', async () => {
    const socket = await open();
    socket.write(`POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{`);
    const drip = setInterval(() => socket.write(' '), 200);
    const closedAfter = await closedWithin(socket, 8_000);
    clearInterval(drip);
    socket.destroy();
    assert.ok(closedAfter < 8_000, 'the server closed the drip-fed body');
  });

  test('connections beyond MAX_CONNECTIONS are refused at once; the server keeps serving', async () => {
    const sockets: Socket[] = [];
    for (let index = 0; index < 20; index += 1) sockets.push(await open());
    const extra = await open();
    assert.ok((await closedWithin(extra, 2_000)) < 2_000, 'the 21st socket is closed');
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await fetch(`${h.url}/healthz`)).status, 200);
  });
});
