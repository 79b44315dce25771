import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { GoogleGenAI } from '@google/genai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/**
 * @google/genai 3.x (and the Gemini CLI) default to `/v1/models/...` rather than `/v1beta`; the same
 * root must work. The installed 2.x (the newest that accepts Node 20) defaults to v1beta, so v1 is asked for by name.
 */
let harness: Harness;
let genai: GoogleGenAI;

before(async () => {
  harness = await startHarness();
  await harness.addChannel({ provider: 'anthropic', models: ['via-v1'] });
  const { key } = await harness.addKey();
  genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: harness.url, apiVersion: 'v1' } });
});
after(() => harness.close());

test('generateContent, streaming and models.list on the default API version', async () => {
  harness.simulator.enqueue({ text: 'answer over v1' });
  const reply = await genai.models.generateContent({ model: 'via-v1', contents: 'hi' });
  assert.equal(reply.text, 'answer over v1');

  harness.simulator.enqueue({ text: 'streamed over v1' });
  let text = '';
  for await (const chunk of await genai.models.generateContentStream({ model: 'via-v1', contents: 'hi' })) text += chunk.text ?? '';
  assert.equal(text, 'streamed over v1');

  const names: string[] = [];
  for await (const model of await genai.models.list()) names.push(model.name ?? '');
  assert.deepEqual(names, ['models/via-v1']);
});
