import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { ChargeWriter } from '../../src/billing/charge-writer.ts';
import { UsageWriter } from '../../src/billing/usage-writer.ts';
import type { UsageLogEntry } from '../../src/domain/usage-log-entry.ts';
import { chatCompletion, replyLater } from './hostile-upstream.ts';
import { CHANNEL_SECRET, eventually, startSecurityHarness, type SecurityHarness } from './security-harness.ts';

/**
 * Issue 14's six vulnerabilities, each replayed against a real gateway in front of a hostile
 * upstream on loopback. Every test here failed on the code before the fix.
 */

const quotedFieldError = (field: string) => ({
  error: { message: `Unrecognized request argument supplied: ${field}`, type: 'invalid_request_error', param: null, code: null },
});

describe('V1: no key can take a shared channel offline', () => {
  let h: SecurityHarness;
  let attacker: string;
  let victim: string;
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ models: ['model-a', 'model-b'] });
    attacker = (await h.addKey()).key;
    victim = (await h.addKey()).key;
    h.upstream.answer((request) => {
      const body = request.body as Record<string, any>;
      for (const word of ['billing', 'invalid_api_key', 'insufficient_quota', 'permission_denied']) {
        if (word in body) return { status: 400, body: quotedFieldError(word) };
      }
      if (body.model === 'model-a' && body.user === 'forbidden')
        return { status: 403, body: { error: { message: 'You are not allowed to sample from this model', type: 'invalid_request_error', code: null } } };
      if (body.model === 'model-a' && body.user === 'crash')
        return { status: 500, body: { error: { message: 'The server had an error', type: 'server_error' } } };
      return { body: chatCompletion(body.model, { prompt: 3, completion: 1 }) };
    });
  });
  after(() => h.close());

  test('an error word a client put in a field name the upstream quotes never trips the channel', async () => {
    for (const word of ['billing', 'invalid_api_key', 'insufficient_quota', 'permission_denied']) {
      for (let index = 0; index < 3; index += 1) {
        const hostile = await h.chat(attacker, { model: 'model-a', messages: [{ role: 'user', content: 'hi' }], [word]: true });
        assert.equal(hostile.status, 400, hostile.text);
      }
    }
    const innocent = await h.chat(victim, { model: 'model-a', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(innocent.status, 200, innocent.text);
    const channel = (await h.admin('GET', '/channels'))[0] ?? (await h.admin('GET', '/channels')).data?.[0];
    assert.equal(channel.health.state, 'closed');
  });

  test('an upstream 403 for one request stays with that request: the channel and its other models keep serving', async () => {
    const refused = await h.chat(attacker, { model: 'model-a', user: 'forbidden', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(refused.status, 403, refused.text);
    assert.equal((await h.chat(victim, { model: 'model-b', messages: [{ role: 'user', content: 'hi' }] })).status, 200);
    assert.equal((await h.chat(victim, { model: 'model-a', messages: [{ role: 'user', content: 'hi' }] })).status, 200);
  });

  test('a model that keeps failing opens its own circuit (channel × model), not the channel', async () => {
    for (let index = 0; index < 8; index += 1) {
      const failed = await h.chat(attacker, { model: 'model-a', user: 'crash', messages: [{ role: 'user', content: 'hi' }] });
      assert.ok(failed.status >= 500, failed.text);
    }
    const blocked = await h.chat(victim, { model: 'model-a', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(blocked.status, 503, 'model-a is out on this channel');
    const other = await h.chat(victim, { model: 'model-b', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(other.status, 200, other.text);
    const channels = await h.admin('GET', '/channels');
    const channel = Array.isArray(channels) ? channels[0] : channels.data[0];
    assert.equal(channel.health.state, 'closed');
    assert.deepEqual(
      channel.health.models.map((entry: any) => [entry.model, entry.state]),
      [['model-a', 'open']],
    );
  });
});

describe('V2: IP fences cannot be bypassed with a header the proxy does not set', () => {
  let h: SecurityHarness;
  let key: string;
  before(async () => {
    h = await startSecurityHarness({ trustedProxies: ['127.0.0.1'] });
    await h.addHostileChannel({ models: ['model-a'] });
    key = (await h.addKey({ allowedIps: ['203.0.113.0/24'] })).key;
    h.upstream.answer((request) => ({ body: chatCompletion((request.body as any).model, { prompt: 1, completion: 1 }) }));
  });
  after(() => h.close());

  const ask = (headers: Record<string, string>) => h.chat(key, { model: 'model-a', messages: [{ role: 'user', content: 'hi' }] }, headers);

  test("a client's own Forwarded header is not read: only the configured X-Forwarded-For counts", async () => {
    const spoofed = await ask({ forwarded: 'for=203.0.113.5', 'x-forwarded-for': '198.51.100.1' });
    assert.equal(spoofed.status, 403, spoofed.text);
    assert.match(spoofed.text, /198\.51\.100\.1/);
    assert.equal((await ask({ forwarded: 'for=203.0.113.5' })).status, 403, 'Forwarded alone does not name the client either');
    assert.equal((await ask({ 'x-real-ip': '203.0.113.5' })).status, 403);
    assert.equal((await ask({ 'x-forwarded-for': '203.0.113.5' })).status, 200);
    // Right to left: a client-prepended address is ignored.
    assert.equal((await ask({ 'x-forwarded-for': '203.0.113.5, 198.51.100.1' })).status, 403);
  });

  test('the shipped nginx config overwrites every client-address header it does not set', () => {
    const nginx = readFileSync('deploy/nginx.conf', 'utf8');
    assert.match(nginx, /proxy_set_header Forwarded "";/);
    assert.match(nginx, /proxy_set_header X-Real-IP "";/);
    assert.match(nginx, /proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });
});

describe('V3 and V5: reservations bound what a request can cost', () => {
  let h: SecurityHarness;
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ models: ['multi', 'cjk'] });
    // multi: output 1 USD/M (1 µUSD a token), input free. cjk: input 1 USD/M, output free.
    await h.admin('POST', '/prices', { model: 'multi', input: 0, output: 1 });
    await h.admin('POST', '/prices', { model: 'cjk', input: 1, output: 0 });
    h.upstream.answer((request, response) => {
      const body = request.body as any;
      if (body.model === 'multi') {
        const n = body.n ?? 1;
        return replyLater(response, 50, 200, chatCompletion('multi', { prompt: 5, completion: n * body.max_tokens }, 'x', n));
      }
      // One token per character, as real tokenizers count Chinese.
      const chars = [...body.messages.map((message: any) => message.content).join('')].length;
      return replyLater(response, 50, 200, chatCompletion('cjk', { prompt: chars, completion: 1 }));
    });
  });
  after(() => h.close());

  test('V3: 40 parallel requests with n: 10 against a balance for 2 overspend by at most one request', async () => {
    const perRequest = 10 * 10; // µUSD: n × max_tokens output tokens
    const { id, key } = await h.addKey({ balance: (2 * perRequest) / 1e6 });
    const replies = await Promise.all(
      Array.from({ length: 40 }, () => h.chat(key, { model: 'multi', n: 10, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })),
    );
    const served = replies.filter((reply) => reply.status === 200).length;
    assert.ok(served >= 1 && served <= 3, `served ${served}`);
    assert.ok(await eventually(async () => (await h.balanceOf(id)) === (2 * perRequest - served * perRequest) / 1e6));
    assert.ok((await h.balanceOf(id)) * 1e6 >= -perRequest, `balance ${await h.balanceOf(id)}`);
  });

  test('V5: 60 parallel Chinese prompts against a balance for 10 overspend by at most one request', async () => {
    const prompt = '请用中文详细解释一下这个问题的答案'.repeat(20); // 340 characters, ~340 tokens
    const perRequest = [...prompt].length; // µUSD at 1 USD per million input tokens
    const { id, key } = await h.addKey({ balance: (10 * perRequest) / 1e6 });
    const replies = await Promise.all(
      Array.from({ length: 60 }, () => h.chat(key, { model: 'cjk', max_tokens: 1, messages: [{ role: 'user', content: prompt }] })),
    );
    const served = replies.filter((reply) => reply.status === 200).length;
    assert.ok(served >= 1, 'the bound still admits requests');
    assert.ok(await eventually(async () => Math.round((await h.balanceOf(id)) * 1e6) === 10 * perRequest - served * perRequest));
    assert.ok(Math.round((await h.balanceOf(id)) * 1e6) >= -perRequest, `served ${served}, balance ${await h.balanceOf(id)}`);
  });
});

describe('V4: money inputs are bounded and one bad row never blocks a batch', () => {
  let h: SecurityHarness;
  before(async () => {
    h = await startSecurityHarness();
  });
  after(() => h.close());

  test('priceMultiplier 1e308 (and other unbounded money values) are refused with a 400 naming the field', async () => {
    for (const [path, body, field] of [
      ['/groups', { name: 'inf', priceMultiplier: 1e308 }, 'priceMultiplier'],
      ['/groups', { name: 'inf2', priceMultiplier: 1001 }, 'priceMultiplier'],
      ['/prices', { model: 'm', input: 1e308, output: 1 }, 'input'],
      ['/prices', { model: 'm', input: 1, output: 100_001 }, 'output'],
      ['/keys', { name: 'k', group: 'default', balance: 1e308 }, 'balance'],
      ['/keys', { name: 'k', group: 'default', limits: { dailySpend: 1e300 } }, 'limits.dailySpend'],
    ] as const) {
      const reply = await h.admin('POST', path, body, 400);
      assert.equal(reply.error.param, field, JSON.stringify(reply));
    }
    await h.admin('PATCH', '/groups/default', { priceMultiplier: 1e308 }, 400);
  });

  test('the charge writer refuses a non-finite charge and sets aside a row the store rejects, writing the rest', async () => {
    const written: Array<{ keyId: string; amountMicros: number }> = [];
    const calls: string[][] = [];
    const writer = new ChargeWriter(
      {
        async applyCharges(rows) {
          calls.push(rows.map((row) => row.keyId));
          if (rows.some((row) => row.keyId === 'poison')) throw new Error('constraint violated');
          written.push(...rows);
        },
      },
      pino({ level: 'silent' }),
      60_000,
    );
    writer.record('good-1', 10);
    writer.record('bad', Number.POSITIVE_INFINITY);
    writer.record('poison', 5);
    writer.record('good-2', 20);
    await writer.flush();
    assert.deepEqual(written.map((row) => row.keyId).sort(), ['good-1', 'good-2']);
    assert.deepEqual(writer.rejected.map((row) => row.keyId).sort(), ['bad', 'poison']);
    assert.equal(writer.pending('poison'), 0, 'the bad row is not retried forever');
    writer.record('good-1', 1);
    await writer.flush();
    assert.deepEqual(calls.at(-1), ['good-1']);
    await writer.close();
  });

  test('the charge writer keeps everything when the database, not a row, is at fault', async () => {
    let down = true;
    const written: string[] = [];
    const writer = new ChargeWriter(
      {
        async applyCharges(rows) {
          if (down) throw new Error('connection refused');
          written.push(...rows.map((row) => row.keyId));
        },
      },
      pino({ level: 'silent' }),
      60_000,
    );
    writer.record('a', 1);
    writer.record('b', 2);
    await writer.flush();
    assert.equal(writer.pending('a') + writer.pending('b'), 3);
    assert.equal(writer.rejected.length, 0);
    down = false;
    await writer.flush();
    assert.deepEqual(written.sort(), ['a', 'b']);
    await writer.close();
  });

  test('the usage writer writes every good row of a batch with one bad row in it', async () => {
    const stored: string[] = [];
    const writer = new UsageWriter(
      {
        async insertMany(entries: UsageLogEntry[]) {
          if (entries.some((entry) => entry.requestId === 'req_bad')) throw new Error('value out of range');
          stored.push(...entries.map((entry) => entry.requestId));
        },
      } as any,
      pino({ level: 'silent' }),
      { flushIntervalMs: 60_000, batchSize: 1_000, maxQueued: 10_000 },
    );
    for (let index = 0; index < 9; index += 1) writer.record({ requestId: index === 4 ? 'req_bad' : `req_${index}` } as UsageLogEntry);
    await writer.flush();
    assert.equal(stored.length, 8);
    assert.equal(writer.rejected, 1);
    assert.equal(writer.pending, 0);
    await writer.close();
  });
});

describe('V6: upstream error text never carries the channel secret anywhere', () => {
  let h: SecurityHarness;
  let key: string;
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ models: ['echo'] });
    key = (await h.addKey()).key;
    h.upstream.answer((request) => {
      const auth = String(request.headers.authorization ?? '');
      const body = request.body as any;
      if (body.user === 'truncated') {
        return {
          status: 401,
          body: {
            error: {
              message: `Incorrect API key provided: ${CHANNEL_SECRET.slice(0, 20)}***${CHANNEL_SECRET.slice(-6)}`,
              type: 'invalid_request_error',
              code: 'invalid_api_key',
            },
          },
        };
      }
      return {
        status: 400,
        body: { error: { message: `Bad request; you sent header "${auth}" and key ${CHANNEL_SECRET}\u0000`, type: 'invalid_request_error', code: null } },
      };
    });
  });
  after(() => h.close());

  test('the client, the usage log, the channel health and the process log never see the secret', async () => {
    const echoed = await h.chat(key, { model: 'echo', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(echoed.status, 400, 'the client gets the upstream status');
    assert.match(echoed.json.error.message, /\[redacted\]/);
    const truncated = await h.chat(key, { model: 'echo', user: 'truncated', messages: [{ role: 'user', content: 'hi' }] });
    assert.ok(truncated.status >= 400);
    const fragment = CHANNEL_SECRET.slice(5, 17);
    for (const text of [echoed.text, truncated.text]) {
      assert.ok(!text.includes(fragment), text);
      assert.ok(!text.includes('\u0000'));
    }
    await eventually(async () => (await h.admin('GET', '/logs?limit=10')).data.length >= 2);
    const logs = JSON.stringify(await h.admin('GET', '/logs?limit=10'));
    const channels = JSON.stringify(await h.admin('GET', '/channels'));
    assert.ok(!logs.includes(fragment), logs);
    assert.ok(!channels.includes(fragment), channels);
    assert.ok(!h.logLines().includes(fragment), 'process log');
  });
});
