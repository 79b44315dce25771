// The simulator's own controls: script queue, recording, auth, routing, connection counting, CLI.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { once } from 'node:events';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { ProviderSimulator } from './provider-simulator.ts';
import { startProviderSimulator } from './provider-simulator.ts';
import type { RecordedRequest } from './recorded-request.ts';
import { waitFor } from './wait-for.ts';

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

describe('script queue and recording', () => {
  let simulator: ProviderSimulator;
  const chat = () => postJson(`${simulator.url}/v1/chat/completions`, { model: 'm', messages: [] });
  const answer = (reply: { body: unknown }) => (reply.body as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content;

  before(async () => {
    simulator = await startProviderSimulator({ now: () => 1_700_000_000_000 });
  });
  after(() => simulator.close());
  beforeEach(() => simulator.reset());

  test('queued scripts are used first in, first out, then the default', async () => {
    simulator.setDefault({ text: 'default' });
    simulator.enqueue({ text: 'first' });
    simulator.enqueue({ text: 'second' });
    assert.deepEqual([answer(await chat()), answer(await chat()), answer(await chat())], ['first', 'second', 'default']);
  });

  test('reset clears the queue and the recorded requests and restores the built-in default', async () => {
    simulator.setDefault({ text: 'custom' });
    simulator.enqueue({ text: 'queued' });
    await chat();
    const requests = simulator.requests;
    simulator.reset();
    assert.equal(requests.length, 0, 'cleared in place, so held references see it');
    assert.equal(answer(await chat()), 'Hello from the simulator.');
  });

  test('every request is recorded with method, path, query, lower-case headers, parsed body and time', async () => {
    const seen: RecordedRequest[] = [];
    const unsubscribe = simulator.onRequest((request) => seen.push(request));
    await fetch(`${simulator.url}/v1/models?limit=5`, { headers: { 'X-Custom-Thing': 'yes' } });
    await fetch(`${simulator.url}/v1/chat/completions`, { method: 'POST', body: 'not json' });
    unsubscribe();
    await chat();
    assert.equal(seen.length, 2);
    const [models, raw] = simulator.requests;
    assert.equal(models?.method, 'GET');
    assert.equal(models?.path, '/v1/models');
    assert.deepEqual(models?.query, { limit: '5' });
    assert.equal(models?.headers['x-custom-thing'], 'yes');
    assert.equal(models?.receivedAt, 1_700_000_000_000);
    assert.equal(raw?.body, 'not json');
    assert.equal(raw?.model, undefined);
    assert.equal(simulator.requests.length, 3);
    assert.equal(simulator.lastRequest()?.model, 'm');
  });

  test('created timestamps come from the injected clock and ids are unique per request', async () => {
    const first = (await chat()).body as { id: string; created: number };
    const second = (await chat()).body as { id: string; created: number };
    assert.equal(first.created, 1_700_000_000);
    assert.notEqual(first.id, second.id);
  });

  test('maxRecorded keeps only the newest requests', async () => {
    const bounded = await startProviderSimulator({ maxRecorded: 2 });
    try {
      for (const model of ['a', 'b', 'c']) {
        await postJson(`${bounded.url}/v1/chat/completions`, { model, messages: [] });
      }
      assert.deepEqual(
        bounded.requests.map((request) => request.model),
        ['b', 'c'],
      );
    } finally {
      await bounded.close();
    }
  });
});

describe('routing', () => {
  let simulator: ProviderSimulator;

  before(async () => {
    simulator = await startProviderSimulator();
  });
  after(() => simulator.close());

  test('GET /v1/models answers each client in its own shape', async () => {
    const openai = (await (await fetch(`${simulator.url}/v1/models`)).json()) as { object: string };
    const anthropic = (await (await fetch(`${simulator.url}/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } })).json()) as { has_more: boolean };
    const gemini = (await (await fetch(`${simulator.url}/v1/models?key=k`)).json()) as { models: unknown[] };
    assert.equal(openai.object, 'list');
    assert.equal(anthropic.has_more, false);
    assert.equal(gemini.models.length, 2);
  });

  test('single-model lookups answer the entry or a 404 in the provider shape', async () => {
    const found = await fetch(`${simulator.url}/v1beta/models/gemini-2.5-flash`);
    assert.equal(((await found.json()) as { name: string }).name, 'models/gemini-2.5-flash');
    const missing = await fetch(`${simulator.url}/v1/models/nope`, { headers: { 'anthropic-version': '2023-06-01' } });
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { error: { type: string } }).error.type, 'not_found_error');
  });

  test('a Gemini model path with an encoded colon is understood', async () => {
    const reply = await postJson(`${simulator.url}/v1beta/models/gemini-x%3AgenerateContent`, { contents: [] });
    assert.equal(reply.status, 200);
    assert.equal(simulator.lastRequest()?.model, 'gemini-x');
    assert.equal(simulator.lastRequest()?.endpoint, 'generate');
  });

  test('unknown paths get a 404 in the OpenAI error shape', async () => {
    const reply = await postJson(`${simulator.url}/v2/whatever`, {});
    assert.equal(reply.status, 404);
    assert.deepEqual(Object.keys((reply.body as { error: object }).error).sort(), ['code', 'message', 'param', 'type']);
    assert.equal(simulator.lastRequest()?.protocol, 'unknown');
  });
});

describe('expectedKey', () => {
  let simulator: ProviderSimulator;

  before(async () => {
    simulator = await startProviderSimulator({ expectedKey: 'right-key' });
  });
  after(() => simulator.close());

  test('OpenAI: a wrong key is a 401 AuthenticationError with code invalid_api_key; the right one passes', async () => {
    const wrong = new OpenAI({ baseURL: `${simulator.url}/v1`, apiKey: 'wrong-key', maxRetries: 0 });
    const error = await wrong.chat.completions.create({ model: 'm', messages: [] }).catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.AuthenticationError);
    assert.equal(error.code, 'invalid_api_key');
    assert.equal(error.type, 'invalid_request_error');
    assert.equal(simulator.lastRequest()?.headers.authorization, 'Bearer wrong-key');
    const right = new OpenAI({ baseURL: `${simulator.url}/v1`, apiKey: 'right-key', maxRetries: 0 });
    await right.chat.completions.create({ model: 'm', messages: [] });
  });

  test('Anthropic: a wrong key is a 401 authentication_error; x-api-key and Bearer both work', async () => {
    const wrong = new Anthropic({ baseURL: simulator.url, apiKey: 'wrong-key', maxRetries: 0 });
    const request = { model: 'c', max_tokens: 8, messages: [{ role: 'user' as const, content: 'x' }] };
    const error = await wrong.messages.create(request).catch((e: unknown) => e);
    assert.ok(error instanceof Anthropic.AuthenticationError);
    assert.deepEqual((error.error as { error: { type: string } }).error.type, 'authentication_error');
    const right = new Anthropic({ baseURL: simulator.url, apiKey: 'right-key', maxRetries: 0 });
    await right.messages.create(request);
    const raw = await postJson(`${simulator.url}/v1/messages`, request, { 'x-api-key': 'right-key' });
    assert.equal(raw.status, 200);
    const missing = await postJson(`${simulator.url}/v1/messages`, request);
    assert.deepEqual(missing.body, {
      type: 'error',
      error: { type: 'authentication_error', message: 'x-api-key header is required' },
    });
  });

  test('Gemini: a wrong key is a 401 UNAUTHENTICATED ApiError; x-goog-api-key and ?key= both work', async () => {
    const wrong = new GoogleGenAI({ apiKey: 'wrong-key', httpOptions: { baseUrl: simulator.url } });
    const error = await wrong.models.generateContent({ model: 'g', contents: 'x' }).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 401);
    assert.match(error.message, /UNAUTHENTICATED/);
    const right = new GoogleGenAI({ apiKey: 'right-key', httpOptions: { baseUrl: simulator.url } });
    await right.models.generateContent({ model: 'g', contents: 'x' });
    const byQuery = await postJson(`${simulator.url}/v1beta/models/g:generateContent?key=right-key`, { contents: [] });
    assert.equal(byQuery.status, 200);
  });

  test('a rejected request does not consume a queued script', async () => {
    simulator.enqueue({ text: 'kept for the authorised caller' });
    await postJson(`${simulator.url}/v1/chat/completions`, { model: 'm', messages: [] });
    const reply = await postJson(`${simulator.url}/v1/chat/completions`, { model: 'm', messages: [] }, { authorization: 'Bearer right-key' });
    assert.equal((reply.body as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content, 'kept for the authorised caller');
  });
});

describe('connections and the CLI', () => {
  test('openConnections counts open client sockets', async () => {
    const simulator = await startProviderSimulator();
    try {
      const url = new URL(simulator.url);
      const socket = connect(Number(url.port), url.hostname);
      await once(socket, 'connect');
      await waitFor(() => simulator.openConnections() === 1, 'socket counted');
      socket.destroy();
      await waitFor(() => simulator.openConnections() === 0, 'socket closed');
    } finally {
      await simulator.close();
    }
  });

  test('close() ends hung requests instead of waiting for them', async () => {
    const simulator = await startProviderSimulator();
    simulator.setDefault({ fault: { type: 'hang' } });
    const pending = fetch(`${simulator.url}/v1/chat/completions`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    await waitFor(() => simulator.requests.length === 1, 'request received');
    await simulator.close();
    assert.ok((await pending) instanceof Error);
  });

  test('main.ts prints its URL and serves', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/simulator/main.ts', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const url = line.toString().trim();
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const reply = await postJson(`${url}/v1/messages`, { model: 'cli-model', max_tokens: 5, messages: [] });
      assert.equal((reply.body as { model: string }).model, 'cli-model');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
