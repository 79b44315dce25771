// Each scripted fault, observed the way a client sees it, through the official SDKs.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { ProviderSimulator } from './provider-simulator.ts';
import { startProviderSimulator } from './provider-simulator.ts';
import { waitFor } from './wait-for.ts';

const chatRequest = { model: 'gpt-fault', messages: [{ role: 'user' as const, content: 'x' }] };
const messageRequest = { model: 'claude-fault', max_tokens: 32, messages: [{ role: 'user' as const, content: 'x' }] };
const geminiRequest = { model: 'gemini-fault', contents: 'x' };

async function drain(iterable: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** Collects items until `count` have arrived, then reports whether anything else came within `quietMs`. */
async function takeThenListen(iterable: AsyncIterable<unknown>, count: number, quietMs: number) {
  const iterator = iterable[Symbol.asyncIterator]();
  const items: unknown[] = [];
  while (items.length < count) {
    const next = await iterator.next();
    if (next.done) break;
    items.push(next.value);
  }
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<'silent'>((resolve) => {
    timer = setTimeout(() => resolve('silent'), quietMs);
  });
  const outcome = await Promise.race([
    iterator.next().then(
      () => 'more' as const,
      () => 'error' as const,
    ),
    silence,
  ]);
  clearTimeout(timer);
  return { items, outcome };
}

describe('scripted faults as clients see them', () => {
  let simulator: ProviderSimulator;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let gemini: GoogleGenAI;

  before(async () => {
    simulator = await startProviderSimulator();
    openai = new OpenAI({ baseURL: `${simulator.url}/v1`, apiKey: 'sk-x', maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: simulator.url, apiKey: 'sk-ant-x', maxRetries: 0 });
    gemini = new GoogleGenAI({ apiKey: 'g-x', httpOptions: { baseUrl: simulator.url, apiVersion: 'v1beta' } });
  });
  after(() => simulator.close());
  beforeEach(() => simulator.reset());

  describe('status', () => {
    test('OpenAI: 429 is a RateLimitError with the provider body and a retry-after header', async () => {
      simulator.enqueue({ fault: { type: 'status', status: 429, retryAfter: 3 } });
      const error = await openai.chat.completions.create(chatRequest).catch((e: unknown) => e);
      assert.ok(error instanceof OpenAI.RateLimitError);
      assert.equal(error.status, 429);
      assert.equal(error.headers.get('retry-after'), '3');
      assert.equal(error.code, 'rate_limit_exceeded');
      assert.equal(error.type, 'requests');
    });

    test('OpenAI: 500 on the Responses API is an InternalServerError carrying the scripted message', async () => {
      simulator.enqueue({ fault: { type: 'status', status: 500, message: 'boom' } });
      const error = await openai.responses.create({ model: 'm', input: 'x' }).catch((e: unknown) => e);
      assert.ok(error instanceof OpenAI.InternalServerError);
      assert.equal(error.type, 'server_error');
      assert.match(error.message, /boom/);
    });

    test('Anthropic: 529 is an overloaded_error in the Anthropic error shape', async () => {
      simulator.enqueue({ fault: { type: 'status', status: 529, retryAfter: 1 } });
      const error = await anthropic.messages.create(messageRequest).catch((e: unknown) => e);
      assert.ok(error instanceof Anthropic.APIError);
      assert.equal(error.status, 529);
      assert.deepEqual(error.error, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
      assert.equal(error.headers?.get('retry-after'), '1');
    });

    test('Anthropic: 429 on a stream is a RateLimitError', async () => {
      simulator.enqueue({ fault: { type: 'status', status: 429 } });
      const error = await anthropic.messages
        .stream(messageRequest)
        .finalMessage()
        .catch((e: unknown) => e);
      assert.ok(error instanceof Anthropic.RateLimitError);
    });

    test('Gemini: 429 is an ApiError with RESOURCE_EXHAUSTED', async () => {
      simulator.enqueue({ fault: { type: 'status', status: 429, retryAfter: 7 } });
      const error = await gemini.models.generateContent(geminiRequest).catch((e: unknown) => e);
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 429);
      assert.match(error.message, /RESOURCE_EXHAUSTED/);
      const raw = await fetch(`${simulator.url}/v1beta/models/m:generateContent`, { method: 'POST', body: '{}' });
      assert.equal(raw.status, 200, 'the queue holds one fault only');
    });

    test('Gemini: the raw error body is {error:{code,message,status}} with retry-after', async () => {
      simulator.enqueue({ fault: { type: 'status', status: 503, retryAfter: 2, message: 'busy' } });
      const response = await fetch(`${simulator.url}/v1beta/models/m:generateContent`, { method: 'POST', body: '{}' });
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '2');
      assert.deepEqual(await response.json(), { error: { code: 503, message: 'busy', status: 'UNAVAILABLE' } });
    });
  });

  describe('hang', () => {
    test('the client times out, and the simulator sees the socket close', async () => {
      simulator.enqueue({ fault: { type: 'hang' } });
      const error = await openai.chat.completions.create(chatRequest, { timeout: 100 }).catch((e: unknown) => e);
      assert.ok(error instanceof OpenAI.APIConnectionTimeoutError);
      await waitFor(() => simulator.activeRequests() === 0, 'hung request dropped after client timeout');
    });

    test('an aborted Anthropic request ends with APIUserAbortError', async () => {
      simulator.enqueue({ fault: { type: 'hang' } });
      const controller = new AbortController();
      const pending = anthropic.messages.create(messageRequest, { signal: controller.signal });
      await waitFor(() => simulator.requests.length === 1, 'request received');
      controller.abort();
      await assert.rejects(pending, Anthropic.APIUserAbortError);
    });
  });

  describe('reset', () => {
    test('before headers: a connection error', async () => {
      simulator.enqueue({ fault: { type: 'reset' } });
      const error = await openai.chat.completions.create(chatRequest).catch((e: unknown) => e);
      assert.ok(error instanceof OpenAI.APIConnectionError);
      simulator.enqueue({ fault: { type: 'reset' } });
      const geminiError = await gemini.models.generateContent(geminiRequest).catch((e: unknown) => e);
      assert.ok(geminiError instanceof Error);
      assert.ok(!(geminiError instanceof ApiError), 'not an HTTP error');
    });

    test('mid-stream: the client gets the first chunks, then the stream breaks', async () => {
      simulator.enqueue({ text: 'one two three four five', fault: { type: 'reset', afterChunks: 4 } });
      const stream = anthropic.messages.stream(messageRequest);
      const events: string[] = [];
      stream.on('streamEvent', (event) => events.push(event.type));
      const error = await stream.finalMessage().catch((e: unknown) => e);
      assert.ok(error instanceof Error);
      assert.ok(!(error instanceof Anthropic.APIError), 'a transport failure, not an API error');
      assert.deepEqual(events, ['message_start', 'content_block_start', 'content_block_delta']);
    });

    test('mid-body on a non-streamed answer: a connection error', async () => {
      simulator.enqueue({ fault: { type: 'reset', afterChunks: 1 } });
      const error = await openai.chat.completions.create(chatRequest).catch((e: unknown) => e);
      assert.ok(error instanceof Error);
      assert.ok(!(error instanceof OpenAI.APIError) || error instanceof OpenAI.APIConnectionError);
    });
  });

  describe('stall', () => {
    test('the stream stops after N chunks but the connection stays open', async () => {
      simulator.enqueue({ text: 'a b c d e', fault: { type: 'stall', afterChunks: 3 } });
      const controller = new AbortController();
      const stream = await openai.chat.completions.create({ ...chatRequest, stream: true }, { signal: controller.signal });
      const { items, outcome } = await takeThenListen(stream, 3, 150);
      assert.equal(items.length, 3);
      assert.equal(outcome, 'silent');
      assert.equal(simulator.activeRequests(), 1);
      controller.abort();
      await waitFor(() => simulator.activeRequests() === 0, 'stalled request dropped after client abort');
    });
  });

  describe('malformed', () => {
    test('truncated JSON: the OpenAI SDK fails to parse the event', async () => {
      simulator.enqueue({ text: 'a b c', fault: { type: 'malformed', kind: 'truncated-json', afterChunks: 2 } });
      const stream = await openai.chat.completions.create({ ...chatRequest, stream: true });
      // openai 7.x words it "malformed server-sent event JSON"; 6.x (the newest on Node 20) rethrows the parser's SyntaxError.
      await assert.rejects(drain(stream), /malformed server-sent event JSON|Unterminated string in JSON/);
    });

    test('truncated JSON: Anthropic and Gemini clients fail too', async () => {
      simulator.enqueue({ fault: { type: 'malformed', kind: 'truncated-json' } });
      await assert.rejects(anthropic.messages.stream(messageRequest).finalMessage());
      simulator.enqueue({ fault: { type: 'malformed', kind: 'truncated-json' } });
      await assert.rejects(drain(await gemini.models.generateContentStream(geminiRequest)), SyntaxError);
    });

    test('truncated JSON on a non-streamed answer: the body does not parse', async () => {
      simulator.enqueue({ fault: { type: 'malformed', kind: 'truncated-json' } });
      await assert.rejects(openai.chat.completions.create(chatRequest));
    });

    test('missing-done: an OpenAI stream that ends without [DONE]', async () => {
      simulator.enqueue({ text: 'a b', fault: { type: 'malformed', kind: 'missing-done' } });
      const response = await fetch(`${simulator.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...chatRequest, stream: true }),
      });
      const text = await response.text();
      assert.ok(!text.includes('[DONE]'));
      assert.match(text, /"finish_reason":"stop"/);
    });

    test('missing-stop: an Anthropic stream without message_stop does not produce a final message', async () => {
      simulator.enqueue({ text: 'a b', fault: { type: 'malformed', kind: 'missing-stop' } });
      const stream = anthropic.messages.stream(messageRequest);
      const events: string[] = [];
      stream.on('streamEvent', (event) => events.push(event.type));
      await assert.rejects(stream.finalMessage(), /stream ended without producing a Message/);
      assert.equal(events.at(-1), 'message_delta');
    });
  });

  describe('error-mid-stream', () => {
    test('OpenAI chat: data {error} makes the SDK throw APIError after the first chunks', async () => {
      simulator.enqueue({ text: 'a b c', fault: { type: 'error-mid-stream', afterChunks: 2 } });
      const stream = await openai.chat.completions.create({ ...chatRequest, stream: true });
      const seen: unknown[] = [];
      const error = await (async () => {
        for await (const chunk of stream) seen.push(chunk);
      })().catch((e: unknown) => e);
      assert.ok(error instanceof OpenAI.APIError);
      assert.equal(seen.length, 2);
      assert.match(error.message, /server had an error/);
    });

    test('OpenAI Responses: the error event reaches the SDK', async () => {
      simulator.enqueue({ text: 'a b c', fault: { type: 'error-mid-stream', afterChunks: 3 } });
      // openai 7.x throws an APIError at the event; 6.x (the newest on Node 20) hands the caller
      // the `error` event, with the provider's code, and ends the stream there.
      const seen: Array<{ type: string; code?: string | null }> = [];
      const error = await (async () => {
        for await (const event of openai.responses.stream({ model: 'm', input: 'x' })) seen.push(event as { type: string; code?: string | null });
      })().catch((e: unknown) => e);
      const event = seen.find((entry) => entry.type === 'error');
      assert.ok(error instanceof OpenAI.APIError || (event !== undefined && typeof event.code === 'string'), `events: ${JSON.stringify(seen)}`);
      if (!(error instanceof OpenAI.APIError)) assert.equal(seen.at(-1)?.type, 'error');
    });

    test('Anthropic: event error overloaded_error makes the SDK throw APIError', async () => {
      simulator.enqueue({ text: 'a b c', fault: { type: 'error-mid-stream', afterChunks: 3 } });
      const error = await anthropic.messages
        .stream(messageRequest)
        .finalMessage()
        .catch((e: unknown) => e);
      assert.ok(error instanceof Anthropic.APIError);
      assert.deepEqual(error.error, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    });

    test('Gemini: data {error} makes the SDK throw ApiError', async () => {
      simulator.enqueue({ text: 'a b c', fault: { type: 'error-mid-stream', afterChunks: 1 } });
      const stream = await gemini.models.generateContentStream(geminiRequest);
      const error = await drain(stream).catch((e: unknown) => e);
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 503);
    });

    test('on a non-streamed request it is the provider overload status', async () => {
      simulator.enqueue({ fault: { type: 'error-mid-stream', afterChunks: 1 } });
      const error = await anthropic.messages.create(messageRequest).catch((e: unknown) => e);
      assert.ok(error instanceof Anthropic.APIError);
      assert.equal(error.status, 529);
    });
  });

  describe('pacing', () => {
    test('delayMs holds the headers back', async () => {
      simulator.enqueue({ delayMs: 60 });
      const started = performance.now();
      await openai.chat.completions.create(chatRequest);
      assert.ok(performance.now() - started >= 55);
    });

    test('chunkDelayMs drips the stream, and a client disconnect ends the response promptly', async () => {
      simulator.enqueue({ text: 'a b c d', chunkDelayMs: 30 });
      const started = performance.now();
      const chunks = await drain(await openai.chat.completions.create({ ...chatRequest, stream: true }));
      // role chunk + 4 words + finish + [DONE] = 7 frames, so at least 6 pauses.
      assert.equal(chunks.length, 6);
      assert.ok(performance.now() - started >= 6 * 30 - 10);

      simulator.enqueue({ text: 'a b c d', chunkDelayMs: 5_000 });
      const controller = new AbortController();
      const stream = await openai.chat.completions.create({ ...chatRequest, stream: true }, { signal: controller.signal });
      await stream[Symbol.asyncIterator]().next();
      assert.equal(simulator.activeRequests(), 1);
      const aborted = performance.now();
      controller.abort();
      await waitFor(() => simulator.activeRequests() === 0, 'dripping response dropped after abort');
      assert.ok(performance.now() - aborted < 100);
    });
  });
});
