import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, GoogleGenAI, Type } from '@google/genai';
import type { ChatResponse } from '../../core/chat-response.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { serveCannedReply, type CannedReply, type CannedRequest, type CannedServer } from '../../../test/helpers/serve-canned-reply.ts';
import { createGeminiStreamEncoder } from './create-gemini-stream-encoder.ts';
import { decodeGeminiRequest } from './decode-gemini-request.ts';
import { encodeGeminiError } from './encode-gemini-error.ts';
import { encodeGeminiModelList } from './encode-gemini-model-list.ts';
import { encodeGeminiResponse } from './encode-gemini-response.ts';

/**
 * Serves this codec's bytes to the official `@google/genai` SDK: what the SDK parses out of
 * them is what a real Gemini client would see from the gateway.
 */
const usage = { inputTokens: 12, outputTokens: 9, reasoningTokens: 4, cacheReadTokens: 3 };
const streamEvents: StreamEvent[] = [
  { type: 'response-start', id: 'resp-1', model: 'gemini-test', createdAt: 0 },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'Considering.' },
  { type: 'reasoning-end', id: 'r' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hello, ' },
  { type: 'text-delta', id: 't', delta: 'world.' },
  { type: 'text-end', id: 't' },
  { type: 'tool-call-start', id: 'c1', callId: 'call_1', name: 'get_weather' },
  { type: 'tool-call-delta', id: 'c1', argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', id: 'c1', argumentsDelta: '"Paris","days":[1,2]}' },
  { type: 'tool-call-end', id: 'c1' },
  { type: 'tool-call-start', id: 'c2', callId: 'call_2', name: 'get_time' },
  { type: 'tool-call-end', id: 'c2' },
  { type: 'usage', usage },
  { type: 'response-end', finishReason: { unified: 'tool-calls' } },
];
const response: ChatResponse = {
  id: 'resp-2',
  model: 'gemini-test',
  createdAt: 0,
  content: [
    { type: 'reasoning', text: 'Considering.' },
    { type: 'text', text: 'Hello, world.' },
    { type: 'tool-call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
  ],
  finishReason: { unified: 'tool-calls' },
  usage,
};
const models = Array.from({ length: 5 }, (_, i) => `gemini-model-${i}`);

let server: CannedServer;
let ai: GoogleGenAI;

function reply(request: CannedRequest): CannedReply {
  const url = new URL(request.url, 'http://localhost');
  const match = /^\/v1beta\/models\/([^:]+):(\w+)$/.exec(url.pathname);
  if (request.method === 'GET' && url.pathname === '/v1beta/models') {
    const pageSize = url.searchParams.get('pageSize');
    const pageToken = url.searchParams.get('pageToken');
    const list = encodeGeminiModelList(models, {
      ...(pageSize === null ? {} : { pageSize: Number(pageSize) }),
      ...(pageToken === null ? {} : { pageToken }),
    });
    return { contentType: 'application/json', body: JSON.stringify(list) };
  }
  if (match?.[1] === 'rate-limited') {
    const error = encodeGeminiError(new GatewayError('rate_limited', 'Too many requests for this key.'), 'req-42');
    return { status: error.status, contentType: 'application/json', body: JSON.stringify(error.body) };
  }
  if (match?.[2] === 'streamGenerateContent') {
    const encoder = createGeminiStreamEncoder(createFixedRuntime(), { format: 'sse' });
    return { contentType: 'text/event-stream', body: [...streamEvents.map((event) => encoder.push(event)), encoder.end()] };
  }
  if (match?.[2] === 'generateContent') {
    return { contentType: 'application/json', body: JSON.stringify(encodeGeminiResponse(response, createFixedRuntime())) };
  }
  return { status: 404, contentType: 'text/plain', body: '' };
}

before(async () => {
  server = await serveCannedReply(reply);
  ai = new GoogleGenAI({ apiKey: 'x', httpOptions: { baseUrl: server.url, apiVersion: 'v1beta' } });
});

after(async () => {
  await server.close();
});

describe('@google/genai against this codec', () => {
  test('generateContentStream yields the text, whole function calls and usage', async () => {
    const stream = await ai.models.generateContentStream({
      model: 'gemini-test',
      contents: 'What is the weather in Paris?',
      config: {
        systemInstruction: 'Be brief.',
        temperature: 0.5,
        thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
        tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } } } }] }],
      },
    });
    let text = '';
    const calls: unknown[] = [];
    let lastUsage: unknown;
    let finishReason: unknown;
    let thoughts = '';
    for await (const chunk of stream) {
      text += chunk.text ?? '';
      calls.push(...(chunk.functionCalls ?? []));
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) if (part.thought) thoughts += part.text ?? '';
      if (chunk.usageMetadata) lastUsage = chunk.usageMetadata;
      finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
      assert.equal(chunk.responseId, 'resp-1');
      assert.equal(chunk.modelVersion, 'gemini-test');
    }
    assert.equal(text, 'Hello, world.');
    assert.equal(thoughts, 'Considering.');
    assert.deepEqual(calls, [
      { id: 'call_1', name: 'get_weather', args: { city: 'Paris', days: [1, 2] } },
      { id: 'call_2', name: 'get_time', args: {} },
    ]);
    assert.equal(finishReason, 'STOP');
    assert.deepEqual(lastUsage, {
      promptTokenCount: 12,
      candidatesTokenCount: 5,
      totalTokenCount: 21,
      thoughtsTokenCount: 4,
      cachedContentTokenCount: 3,
    });

    // What the SDK sent decodes into the request the caller meant.
    const sent = server.requests.find((entry) => entry.url.includes(':streamGenerateContent'));
    assert.equal(sent?.url, '/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    const decoded = decodeGeminiRequest({ body: sent?.body, pathModel: 'gemini-test', pathStream: true }, createFixedRuntime()).value;
    assert.deepEqual(decoded.system, [{ type: 'text', text: 'Be brief.' }]);
    assert.deepEqual(decoded.messages, [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] }]);
    assert.equal(decoded.temperature, 0.5);
    assert.deepEqual(decoded.reasoning, { enabled: true, budgetTokens: 1024 });
    assert.deepEqual(decoded.tools, [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }]);
    assert.equal(decoded.stream, true);
  });

  test('generateContent reads text, function calls and usage from the plain response', async () => {
    const result = await ai.models.generateContent({ model: 'gemini-test', contents: 'hi' });
    assert.equal(result.text, 'Hello, world.');
    assert.deepEqual(result.functionCalls, [{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }]);
    assert.equal(result.candidates?.[0]?.finishReason, 'STOP');
    assert.equal(result.usageMetadata?.totalTokenCount, 21);
    assert.equal(result.usageMetadata?.thoughtsTokenCount, 4);
    assert.equal(result.responseId, 'resp-2');
  });

  test('models.list pages through every model', async () => {
    const pager = await ai.models.list({ config: { pageSize: 2 } });
    const names: string[] = [];
    for await (const model of pager) names.push(model.name ?? '');
    assert.deepEqual(
      names,
      models.map((id) => `models/${id}`),
    );
    const pageRequests = server.requests.filter((entry) => entry.url.startsWith('/v1beta/models?')).map((entry) => entry.url);
    assert.deepEqual(pageRequests, ['/v1beta/models?pageSize=2', '/v1beta/models?pageSize=2&pageToken=2', '/v1beta/models?pageSize=2&pageToken=4']);
    const first = await ai.models.list({ config: { pageSize: 10 } });
    assert.deepEqual(first.page[0]?.supportedActions, ['generateContent', 'streamGenerateContent', 'countTokens']);
  });

  test('an encoded error surfaces as ApiError with status and message', async () => {
    await assert.rejects(ai.models.generateContent({ model: 'rate-limited', contents: 'hi' }), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 429);
      assert.match(error.message, /Too many requests for this key\. \(request id: req-42\)/);
      assert.match(error.message, /RESOURCE_EXHAUSTED/);
      return true;
    });
  });
});
