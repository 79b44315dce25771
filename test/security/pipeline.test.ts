import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chatCompletion, replyLater } from './hostile-upstream.ts';
import { CHANNEL_SECRET, eventually, startSecurityHarness, type SecurityHarness } from './security-harness.ts';

/**
 * Issue 14's items that live in the generation pipeline (run-generation, pipe-stream, billing),
 * each replayed against a real gateway in front of a hostile upstream on loopback. Every test
 * here failed on the code before its fix.
 */

describe('one JSON depth rule on both lanes', () => {
  let h: SecurityHarness;
  let key: string;
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ models: ['deep-model'] });
    key = (await h.addKey()).key;
    h.upstream.answer((request) => ({ body: chatCompletion((request.body as any).model, { prompt: 1, completion: 1 }) }));
  });
  after(() => h.close());

  test('a body nested 100k levels deep is refused with a 400 on the passthrough lane, never forwarded', async () => {
    const depth = 100_000;
    const raw = `{"model":"deep-model","messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const before = h.upstream.requests.length;
    const response = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: raw,
    });
    const text = await response.text();
    assert.equal(response.status, 400, text);
    assert.match(JSON.parse(text).error.message, /nests more than 256 levels/);
    assert.equal(h.upstream.requests.length, before, 'the upstream never saw it');
  });

  test('the same limit as the translated lane: 256 levels pass, 257 do not', async () => {
    const nested = (levels: number) =>
      `{"model":"deep-model","messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    const send = (raw: string) =>
      fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: raw });
    // The body object is level 1, so its member may nest 255 more.
    assert.equal((await send(nested(255))).status, 200);
    assert.equal((await send(nested(256))).status, 400);
  });
});

describe('in-stream upstream errors are redacted', () => {
  let h: SecurityHarness;
  let key: string;
  let keyId: string;
  const FRAGMENT = CHANNEL_SECRET.slice(8, 18);
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ models: ['leaky-model'] });
    ({ id: keyId, key } = await h.addKey());
    h.upstream.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        `data: {"id":"c1","object":"chat.completion.chunk","model":"leaky-model","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}\n\n`,
      );
      setTimeout(() => {
        response.end(
          `data: {"error":{"message":"Incorrect API key provided: ${CHANNEL_SECRET}","type":"invalid_request_error","code":"${CHANNEL_SECRET}"}}\n\n`,
        );
      }, 20);
      return undefined;
    });
  });
  after(() => h.close());

  test('the passthrough and translated lanes never show the channel key from an upstream error event, nor log it', async () => {
    const passthrough = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'leaky-model', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const passthroughText = await passthrough.text();
    assert.match(passthroughText, /Incorrect API key provided/);
    assert.ok(!passthroughText.includes(FRAGMENT), passthroughText);

    const translated = await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'leaky-model', stream: true, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const translatedText = await translated.text();
    assert.match(translatedText, /event: error/);
    assert.ok(!translatedText.includes(FRAGMENT), translatedText);

    const rows = async () => (await h.admin('GET', `/logs?key=${keyId}&limit=10`)).data as unknown[];
    assert.ok(await eventually(async () => (await rows()).length === 2));
    const everything = JSON.stringify(await rows()) + JSON.stringify(await h.admin('GET', '/channels')) + h.logLines();
    assert.ok(!everything.includes(FRAGMENT), 'the secret reached the usage log, channel health or the process log');
  });
});

describe('the key is checked before the body is read', () => {
  let h: SecurityHarness;
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ models: ['auth-model'] });
    h.upstream.answer((request) => ({ body: chatCompletion((request.body as any).model, { prompt: 1, completion: 1 }) }));
  });
  after(() => h.close());

  /** Sends only the headers of a request announcing a large body, and resolves with the status line if the gateway answers without it. */
  const headersOnly = (path: string, headers: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(h.url).port), '127.0.0.1', () => {
        socket.write(`POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 900000\r\n${headers}\r\n{"model":`);
      });
      let received = '';
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(`no answer; got ${JSON.stringify(received)}`);
      }, 2_000);
      socket.on('data', (chunk) => {
        received += String(chunk);
        if (received.includes('\r\n\r\n')) {
          clearTimeout(timer);
          socket.destroy();
          resolve(received.split('\r\n')[0] ?? '');
        }
      });
      socket.on('error', reject);
    });

  test('a request with no key or a bad key is answered 401 before its body is sent, on every generation surface', async () => {
    for (const path of [
      '/v1/chat/completions',
      '/v1/responses',
      '/v1/messages',
      '/v1beta/models/auth-model:generateContent',
      '/antigravity/v1/chat/completions',
    ]) {
      assert.match(await headersOnly(path, ''), /^HTTP\/1\.1 401/, path);
      assert.match(await headersOnly(path, 'authorization: Bearer sk-wrong-key-0123456789\r\n'), /^HTTP\/1\.1 401/, path);
    }
  });
});

describe('refused-auth traffic', () => {
  let h: SecurityHarness;
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ models: ['auth-model'] });
    h.upstream.answer((request) => ({ body: chatCompletion((request.body as any).model, { prompt: 1, completion: 1 }) }));
  });
  after(() => h.close());

  test('refused-auth requests stay out of the usage log: counted in the metrics, one sampled log line', async () => {
    for (let index = 0; index < 50; index += 1) {
      const refused = await h.chat(`sk-guess-${index}`, { model: 'auth-model', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(refused.status, 401);
    }
    const { key } = await h.addKey();
    assert.equal((await h.chat(key, { model: 'auth-model', messages: [{ role: 'user', content: 'hi' }] })).status, 200);
    const rows = async () => (await h.admin('GET', '/logs?limit=1000')).data as Array<{ status: number }>;
    assert.ok(await eventually(async () => (await rows()).length >= 1));
    assert.deepEqual(
      (await rows()).map((row) => row.status),
      [200],
    );

    const metrics = await (await fetch(`${h.url}/metrics`, { headers: { authorization: 'Bearer sya-test-admin-token-0123456789' } })).text();
    const counted = metrics.split('\n').filter((line) => line.startsWith('switchyard_refused_auth_total'));
    assert.deepEqual(counted, ['switchyard_refused_auth_total{protocol="openai-chat",code="invalid_api_key"} 50']);
    const lines = h
      .logLines()
      .split('\n')
      .filter((line) => line.includes('refused for their key'));
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.ok(!h.logLines().includes('sk-guess-'), 'the guessed keys are never logged');
  });
});

describe('usage an upstream does not report is estimated, never free', () => {
  let h: SecurityHarness;
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ models: ['quiet-model'] });
    await h.admin('POST', '/prices', { model: 'quiet-model', input: 1, output: 2 });
    h.upstream.answer((request) => {
      const body = chatCompletion('quiet-model', { prompt: 0, completion: 0 }, 'x'.repeat(400)) as Record<string, unknown>;
      if ((request.body as any).user === 'drop') delete body.usage;
      return { body };
    });
  });
  after(() => h.close());

  for (const [label, user] of [
    ['no usage at all', 'drop'],
    ['a usage of zero tokens', 'zero'],
  ] as const) {
    test(`a reply with ${label} is billed an estimate of its input and output, with a warning on the row`, async () => {
      const { id, key } = await h.addKey({ balance: 1 });
      const answer = await h.chat(key, { model: 'quiet-model', user, messages: [{ role: 'user', content: 'hello '.repeat(40) }] });
      assert.equal(answer.status, 200, answer.text);
      const row = async () => ((await h.admin('GET', `/logs?key=${id}&limit=5`)).data as any[])[0];
      assert.ok(await eventually(async () => (await row()) !== undefined));
      const logged = await row();
      assert.equal(logged.outputTokens, 100, 'the 400 delivered characters, at four a token');
      assert.ok(logged.inputTokens >= 60, `input estimated: ${logged.inputTokens}`);
      assert.ok(logged.costMicros > 0, `cost ${logged.costMicros}`);
      assert.ok(logged.warnings.includes('estimated:usage'), logged.warnings.join(','));
      assert.ok(await eventually(async () => Math.round((await h.balanceOf(id)) * 1e6) === 1e6 - logged.costMicros));
    });
  }
});

describe('a request without an output cap reserves the model’s maximum output', () => {
  let h: SecurityHarness;
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ models: ['gpt-4o-probe'] });
    // $100 per million output tokens: a 16,384-token answer costs $1.64.
    await h.admin('POST', '/prices', { model: 'gpt-4o-probe', input: 1, output: 100 });
    h.upstream.answer((_request, response) => replyLater(response, 150, 200, chatCompletion('gpt-4o-probe', { prompt: 1, completion: 16_384 })));
  });
  after(() => h.close());

  test('20 parallel uncapped requests against a balance for 6 overspend by at most one request', async () => {
    const { id, key } = await h.addKey({ balance: 10 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => h.chat(key, { model: 'gpt-4o-probe', messages: [{ role: 'user', content: 'write a long story' }] })),
    );
    const served = answers.filter((answer) => answer.status === 200).length;
    assert.ok(served >= 1, 'some are served');
    for (const answer of answers) if (answer.status !== 200) assert.equal(answer.json.error.code, 'insufficient_balance');
    const oneRequest = (16_384 * 100) / 1e6 + 1e-5;
    assert.ok(await eventually(async () => (await h.balanceOf(id)) < 10));
    const balance = await h.balanceOf(id);
    assert.ok(balance >= -oneRequest, `balance ${balance} after ${served} served`);
  });
});

describe('upstream event and reply sizes are bounded', () => {
  let h: SecurityHarness;
  let key: string;
  const MB = 1024 * 1024;
  before(async () => {
    h = await startSecurityHarness({ replyLimits: { maxEventBytes: 1 * MB, maxReplyBytes: 4 * MB } });
    await h.addHostileChannel({ models: ['endless-line', 'long-story', 'huge-json'] });
    key = (await h.addKey()).key;
    h.upstream.answer((request, response) => {
      const model = (request.body as any).model;
      if (model === 'huge-json') return { body: chatCompletion(model, { prompt: 1, completion: 1 }, 'z'.repeat(3 * MB)) };
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (content: string) =>
        `data: {"id":"c1","object":"chat.completion.chunk","model":"${model}","choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`;
      response.write(chunk('Hi'));
      let sent = 0;
      const timer = setInterval(() => {
        // endless-line: one "line" of 64 kB pieces that never ends; long-story: whole 64 kB events.
        const piece = model === 'endless-line' ? 'y'.repeat(64 * 1024) : chunk('w'.repeat(64 * 1024));
        sent += piece.length;
        if (response.destroyed || sent > 64 * MB || !response.write(piece)) {
          if (response.destroyed || sent > 64 * MB) {
            clearInterval(timer);
            response.destroy();
          }
        }
      }, 1);
      response.on('close', () => clearInterval(timer));
      return undefined;
    });
  });
  after(() => h.close());

  const channelHealth = async () => {
    const channels = await h.admin('GET', '/channels');
    return (Array.isArray(channels) ? channels[0] : channels.data[0]).health;
  };
  const stream = async (model: string) => {
    const response = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    return response.text();
  };

  test('a stream whose event never ends is cut at MAX_UPSTREAM_EVENT_BYTES with an in-stream error, counted against the channel', async () => {
    const started = performance.now();
    const text = await stream('endless-line');
    assert.ok(performance.now() - started < 10_000);
    assert.match(text, /MAX_UPSTREAM_EVENT_BYTES/);
    assert.ok(text.length < 1 * MB, `the client got ${text.length} bytes`);
    const health = await channelHealth();
    assert.equal(health.lastError?.code, 'upstream_invalid_response');
    assert.match(health.lastError?.message ?? '', /MAX_UPSTREAM_EVENT_BYTES/);
  });

  test('a stream longer than MAX_UPSTREAM_REPLY_BYTES is cut with a clear error, not counted against the channel', async () => {
    const before = (await channelHealth()).lastError;
    const text = await stream('long-story');
    assert.match(text, /MAX_UPSTREAM_REPLY_BYTES/);
    assert.ok(text.length <= 4 * MB + 64 * 1024, `the client got ${text.length} bytes`);
    assert.deepEqual((await channelHealth()).lastError, before, 'the channel is not blamed');
  });

  test('a plain reply larger than MAX_UPSTREAM_EVENT_BYTES is a 502 naming the setting, not retried, not counted against the channel', async () => {
    const before = (await channelHealth()).lastError;
    const calls = h.upstream.requests.length;
    const answer = await h.chat(key, { model: 'huge-json', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(answer.status, 502, answer.text.slice(0, 300));
    assert.match(answer.json.error.message, /MAX_UPSTREAM_EVENT_BYTES/);
    assert.equal(h.upstream.requests.length, calls + 1);
    assert.deepEqual((await channelHealth()).lastError, before);
  });
});

describe('a stream cut after reasoning started bills at least the reasoning seen', () => {
  let h: SecurityHarness;
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ provider: 'anthropic', baseUrl: h.upstream.url, models: ['claude-thinker'] });
    await h.admin('POST', '/prices', { model: 'claude-thinker', input: 1, output: 10 });
    h.upstream.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
      response.write(
        event('message_start', {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'claude-thinker',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 12, output_tokens: 1 },
          },
        }) + event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      );
      for (let index = 0; index < 40; index += 1) {
        response.write(event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm '.repeat(25) } }));
      }
      // Cut mid-thought: no message_delta with the final usage, no message_stop.
      setTimeout(() => response.destroy(), 20);
      return undefined;
    });
  });
  after(() => h.close());

  test('the 4,000 characters of thinking delivered are billed (~1,000 output tokens), not the 1 token of message_start', async () => {
    const { id, key } = await h.addKey({ balance: 1 });
    const response = await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'claude-thinker',
        stream: true,
        max_tokens: 8_000,
        thinking: { type: 'enabled', budget_tokens: 4_000 },
        messages: [{ role: 'user', content: 'think' }],
      }),
    });
    assert.match(await response.text(), /thinking_delta/);
    const row = async () => ((await h.admin('GET', `/logs?key=${id}&limit=5`)).data as any[])[0];
    assert.ok(await eventually(async () => (await row()) !== undefined));
    const logged = await row();
    assert.equal(logged.inputTokens, 12);
    assert.ok(logged.outputTokens >= 1_000, `output ${logged.outputTokens}`);
    assert.ok(logged.warnings.includes('estimated:usage'), logged.warnings.join(','));
  });
});
