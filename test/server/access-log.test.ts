import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { ADMIN_TOKEN, UPSTREAM_SECRET, startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { waitFor } from '../helpers/wait-for.ts';

const PROMPT = 'PROMPT-MARKER-do-not-log-4711';
const ANSWER = 'ANSWER-MARKER-do-not-log-0815';

/** One structured info line per request, generation or not, refused or served; never a secret or prompt text. */
describe('access log', () => {
  let harness: Harness;
  let key: string;
  let keyId: string;
  const lines: Array<Record<string, any>> = [];
  const raw: string[] = [];

  before(async () => {
    const logger = pino(
      { level: 'info' },
      {
        write(line: string) {
          raw.push(line);
          lines.push(JSON.parse(line));
        },
      },
    );
    harness = await startHarness({ logger });
    await harness.addChannel({ provider: 'openai', models: ['m-openai'], name: 'primary' });
    await harness.addChannel({ provider: 'gemini', models: ['m-gemini'], name: 'gem' });
    ({ key, id: keyId } = await harness.addKey({ name: 'logged-key' }));
  });
  after(() => harness.close());

  const requestLines = (requestId: string) => lines.filter((line) => line.msg === 'request' && line.requestId === requestId);
  const lineFor = async (response: Response) => {
    const requestId = response.headers.get('x-request-id') as string;
    assert.ok(requestId, 'the reply names its request id');
    await waitFor(() => requestLines(requestId).length > 0, `access line for ${requestId}`, 2000);
    const found = requestLines(requestId);
    assert.equal(found.length, 1, 'exactly one line for the request');
    const line = found[0] as Record<string, any>;
    assert.equal(line.level, 30, 'info level');
    return line;
  };
  const chat = (authorization: string, body: unknown) =>
    fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  test('a served stream: key, group, model, channel, status, attempts, tokens, cost, duration, ttfb', async () => {
    harness.simulator.enqueue({ text: ANSWER, usage: { input: 12, output: 4 } });
    const response = await chat(`Bearer ${key}`, { model: 'm-openai', stream: true, messages: [{ role: 'user', content: PROMPT }] });
    assert.equal(response.status, 200);
    await response.text();
    const line = await lineFor(response);
    assert.equal(line.method, 'POST');
    assert.equal(line.protocol, 'openai-chat');
    assert.equal(line.keyId, keyId);
    assert.equal(line.keyName, 'logged-key');
    assert.equal(line.group, 'default');
    assert.equal(line.model, 'm-openai');
    assert.equal(line.channel, 'primary');
    assert.equal(line.status, 200);
    assert.equal(line.errorCode, null);
    assert.equal(line.attempts, 1);
    assert.equal(line.inputTokens, 12);
    assert.equal(line.outputTokens, 4);
    assert.equal(typeof line.costMicros, 'number');
    assert.equal(typeof line.durationMs, 'number');
    assert.equal(typeof line.ttfbMs, 'number');
    assert.equal(line.stream, true);
  });

  test('an embeddings request gets exactly one line, from its usage row', async () => {
    const response = await fetch(`${harness.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm-openai', input: 'twelve chars' }),
    });
    assert.equal(response.status, 200);
    await response.text();
    const line = await lineFor(response);
    assert.equal(line.protocol, 'openai-embeddings');
    assert.equal(line.model, 'm-openai');
    assert.equal(line.inputTokens, 3);
    assert.equal(line.outputTokens, 0);
  });

  test('a refused request (wrong key) gets its line, without the key it sent', async () => {
    const wrong = 'sk-wrong-secret-abcdefghijklmnopqrstuvwxyz';
    const response = await chat(`Bearer ${wrong}`, { model: 'm-openai', messages: [{ role: 'user', content: PROMPT }] });
    assert.equal(response.status, 401);
    const line = await lineFor(response);
    assert.equal(line.status, 401);
    assert.equal(line.errorCode, 'invalid_api_key');
    assert.equal(line.keyId, null);
    assert.equal(line.attempts, 0);
    assert.ok(!raw.join('').includes(wrong));
  });

  test('an upstream error: the code, never the upstream message (it may quote the prompt)', async () => {
    harness.simulator.enqueue({ fault: { type: 'status', status: 400, message: `bad input: ${PROMPT}` } });
    const response = await chat(`Bearer ${key}`, { model: 'm-openai', messages: [{ role: 'user', content: PROMPT }] });
    assert.equal(response.status, 400);
    const line = await lineFor(response);
    assert.equal(line.status, 400);
    assert.equal(typeof line.errorCode, 'string');
    assert.equal(line.channel, 'primary');
  });

  test('a Gemini key in the query string stays out of the line', async () => {
    harness.simulator.enqueue({ text: ANSWER });
    const response = await fetch(`${harness.url}/v1beta/models/m-gemini:generateContent?key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
    });
    assert.equal(response.status, 200);
    const line = await lineFor(response);
    assert.equal(line.protocol, 'gemini-generate-content');
    assert.equal(line.channel, 'gem');
  });

  test('requests outside the pipeline: bad JSON on a generation route, the admin API, an unknown route', async () => {
    const badJson = await fetch(`${harness.url}/v1/chat/completions?key=${key}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{"model": "m-openai", "messages": [',
    });
    assert.equal(badJson.status, 400);
    const badLine = await lineFor(badJson);
    assert.equal(badLine.path, '/v1/chat/completions');
    assert.equal(badLine.protocol, 'openai-chat');
    assert.equal(badLine.errorCode, 'invalid_request');

    const admin = await fetch(`${harness.url}/api/admin/channels`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(admin.status, 200);
    const adminLine = await lineFor(admin);
    assert.equal(adminLine.method, 'GET');
    assert.equal(adminLine.path, '/api/admin/channels');
    assert.equal(adminLine.status, 200);

    const models = await fetch(`${harness.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(models.status, 200);
    const modelsLine = await lineFor(models);
    assert.equal(modelsLine.keyId, keyId, 'a model list names the key it accepted');
    assert.equal(modelsLine.attempts, undefined, 'and claims no attempts');
    assert.equal(badLine.keyId, keyId, 'bad JSON after the key was accepted still names the key');
    assert.equal(badLine.attempts, 0);

    const missing = await fetch(`${harness.url}/nowhere`);
    const missingLine = await lineFor(missing);
    assert.equal(missingLine.status, 404);
  });

  test('no line anywhere holds a secret or prompt/answer text', () => {
    const all = raw.join('');
    for (const secret of [key, UPSTREAM_SECRET, ADMIN_TOKEN, PROMPT, ANSWER]) {
      assert.ok(!all.includes(secret), `the log holds ${secret.slice(0, 12)}…`);
    }
  });
});
