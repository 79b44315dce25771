// The simulator's Gemini dialect, checked by the official @google/genai SDK talking to it directly.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GoogleGenAI } from '@google/genai';
import type { ProviderSimulator } from './provider-simulator.ts';
import { startProviderSimulator } from './provider-simulator.ts';

describe('@google/genai against the simulator', () => {
  let simulator: ProviderSimulator;

  before(async () => {
    simulator = await startProviderSimulator();
  });
  after(() => simulator.close());
  beforeEach(() => simulator.reset());

  const clientFor = (apiVersion: 'v1' | 'v1beta' | undefined) =>
    new GoogleGenAI({
      apiKey: 'gemini-test-key',
      httpOptions: apiVersion === undefined ? { baseUrl: simulator.url } : { baseUrl: simulator.url, apiVersion },
    });

  // Both versions by name: @google/genai 2.x (the newest that installs on Node 20) defaults to
  // v1beta, 3.x and the Gemini CLI to v1.
  for (const apiVersion of ['v1beta', 'v1'] as const) {
    const label = apiVersion;

    test(`${label}: generateContent returns text, thoughts, usageMetadata and the model`, async () => {
      simulator.enqueue({
        text: 'Bonjour.',
        reasoning: { text: 'French greeting.', signature: 'thought-sig' },
        usage: { input: 11, output: 9, reasoning: 4, cacheRead: 3 },
      });
      const response = await clientFor(apiVersion).models.generateContent({
        model: 'gemini-test-1',
        contents: 'Say hello in French',
      });
      assert.equal(response.text, 'Bonjour.');
      assert.equal(response.modelVersion, 'gemini-test-1');
      assert.equal(response.candidates?.[0]?.finishReason, 'STOP');
      const parts = response.candidates?.[0]?.content?.parts ?? [];
      assert.deepEqual(parts[0], { text: 'French greeting.', thought: true });
      assert.equal(parts[1]?.thoughtSignature, 'thought-sig');
      assert.equal(response.usageMetadata?.promptTokenCount, 11);
      assert.equal(response.usageMetadata?.candidatesTokenCount, 5);
      assert.equal(response.usageMetadata?.thoughtsTokenCount, 4);
      assert.equal(response.usageMetadata?.cachedContentTokenCount, 3);
      assert.equal(response.usageMetadata?.totalTokenCount, 20);

      const recorded = simulator.lastRequest();
      assert.equal(recorded?.path, `/${apiVersion}/models/gemini-test-1:generateContent`);
      assert.equal(recorded?.protocol, 'gemini-generate-content');
      assert.equal(recorded?.model, 'gemini-test-1');
      assert.equal(recorded?.stream, false);
      assert.equal(recorded?.headers['x-goog-api-key'], 'gemini-test-key');
    });

    test(`${label}: generateContentStream streams text deltas, whole function calls and final usage`, async () => {
      simulator.enqueue({
        text: 'Calling tools now',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { id: 'fc-2', name: 'get_time', arguments: { zone: 'CET' } },
        ],
        usage: { input: 7, output: 6 },
      });
      const stream = await clientFor(apiVersion).models.generateContentStream({
        model: 'gemini-test-2',
        contents: 'weather and time',
      });
      const texts: string[] = [];
      const calls: unknown[] = [];
      let last;
      for await (const chunk of stream) {
        if (chunk.text) texts.push(chunk.text);
        calls.push(...(chunk.functionCalls ?? []));
        last = chunk;
      }
      assert.deepEqual(texts, ['Calling', ' tools', ' now']);
      assert.deepEqual(calls, [
        { name: 'get_weather', args: { city: 'Paris' } },
        { id: 'fc-2', name: 'get_time', args: { zone: 'CET' } },
      ]);
      assert.equal(last?.candidates?.[0]?.finishReason, 'STOP');
      assert.equal(last?.usageMetadata?.totalTokenCount, 13);
      assert.equal(last?.modelVersion, 'gemini-test-2');
      const recorded = simulator.lastRequest();
      assert.equal(recorded?.path, `/${apiVersion}/models/gemini-test-2:streamGenerateContent`);
      assert.equal(recorded?.query.alt, 'sse');
      assert.equal(recorded?.stream, true);
    });

    test(`${label}: models.list returns Gemini model entries`, async () => {
      const pager = await clientFor(apiVersion).models.list();
      const names: string[] = [];
      for await (const model of pager) names.push(model.name ?? '');
      assert.deepEqual(names, ['models/gemini-2.5-flash', 'models/gemini-2.5-pro']);
      assert.equal(simulator.lastRequest()?.protocol, 'gemini-generate-content');
      assert.equal(simulator.lastRequest()?.endpoint, 'list-models');
    });
  }

  test('countTokens answers totalTokens', async () => {
    simulator.enqueue({ usage: { input: 77, output: 0 } });
    const counted = await clientFor('v1beta').models.countTokens({ model: 'gemini-test-1', contents: 'count' });
    assert.equal(counted.totalTokens, 77);
  });

  test('finish reasons map to Gemini finish reasons', async () => {
    simulator.enqueue({ text: 'partial', finish: 'length' });
    simulator.enqueue({ text: 'blocked', finish: 'content_filter' });
    const client = clientFor('v1beta');
    const request = { model: 'gemini-test-1', contents: 'x' };
    assert.equal((await client.models.generateContent(request)).candidates?.[0]?.finishReason, 'MAX_TOKENS');
    assert.equal((await client.models.generateContent(request)).candidates?.[0]?.finishReason, 'SAFETY');
  });

  test('without alt=sse the stream is one JSON array, element by element', async () => {
    simulator.enqueue({ text: 'a b', usage: { input: 1, output: 2 } });
    const response = await fetch(`${simulator.url}/v1beta/models/gemini-test-3:streamGenerateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }),
    });
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as Array<{ candidates: Array<{ content: { parts: Array<{ text: string }> }; finishReason?: string }> }>;
    assert.deepEqual(
      body.map((chunk) => chunk.candidates[0]?.content.parts[0]?.text),
      ['a', ' b'],
    );
    assert.equal(body.at(-1)?.candidates[0]?.finishReason, 'STOP');
  });
});
