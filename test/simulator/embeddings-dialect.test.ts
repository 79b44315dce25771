import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { answerEmbeddings, simulatedVector } from './embeddings-dialect.ts';
import { startProviderSimulator, type ProviderSimulator } from './provider-simulator.ts';

/** The simulator refuses what each provider's embeddings endpoint refuses, in its own shape. */
describe('simulator embeddings rules', () => {
  let sim: ProviderSimulator;
  before(async () => {
    sim = await startProviderSimulator({ expectedKey: 'sk-sim' });
  });
  after(() => sim.close());

  test('OpenAI: the official SDK round-trips base64 vectors; empty input, bad format and dimensions on an old model are 400s', async () => {
    const client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-sim', maxRetries: 0 });
    const reply = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'hi', dimensions: 8 });
    assert.deepEqual(reply.data[0]?.embedding, simulatedVector('text-embedding-3-small', 'hi', 8));
    for (const body of [
      { model: 'text-embedding-3-small', input: '' },
      { model: 'text-embedding-3-small', input: [] },
      { model: 'text-embedding-3-small', input: 'x', encoding_format: 'int8' },
      { model: 'text-embedding-ada-002', input: 'x', dimensions: 8 },
      { input: 'x' },
    ]) {
      const refused = await client.embeddings.create(body as never).catch((error: unknown) => error);
      assert.ok(refused instanceof OpenAI.BadRequestError, JSON.stringify(body));
    }
  });

  test('Gemini batch: at most 100 requests, each naming the URL model', () => {
    const request = (model: string) => ({ model, content: { parts: [{ text: 'x' }] } });
    assert.equal(answerEmbeddings('gemini-batch', 'gemini-embedding-001', { requests: [request('models/gemini-embedding-001')] }, {}).status, 200);
    assert.equal(answerEmbeddings('gemini-batch', 'gemini-embedding-001', { requests: [request('models/other')] }, {}).status, 400);
    const tooMany = answerEmbeddings(
      'gemini-batch',
      'gemini-embedding-001',
      { requests: Array.from({ length: 101 }, () => request('models/gemini-embedding-001')) },
      {},
    );
    assert.equal(tooMany.status, 400);
    assert.match(JSON.stringify(tooMany.body), /at most 100 requests/);
  });

  test('Vertex predict: one instance for gemini-embedding models, 250 for text-embedding', () => {
    const instances = (count: number) => ({ instances: Array.from({ length: count }, () => ({ content: 'x' })) });
    assert.equal(answerEmbeddings('vertex-predict', 'gemini-embedding-001', instances(2), {}).status, 400);
    assert.equal(answerEmbeddings('vertex-predict', 'text-embedding-005', instances(250), {}).status, 200);
    assert.equal(answerEmbeddings('vertex-predict', 'text-embedding-005', instances(251), {}).status, 400);
  });

  test('Bedrock: Titan takes one inputText and no other keys; Cohere needs input_type and at most 96 texts', () => {
    const titan = 'amazon.titan-embed-text-v2:0';
    assert.equal(answerEmbeddings('bedrock-invoke', titan, { inputText: 'x' }, {}).status, 200);
    const extra = answerEmbeddings('bedrock-invoke', titan, { inputText: 'x', texts: ['x'] }, {});
    assert.equal(extra.status, 400);
    assert.match(JSON.stringify(extra.body), /extraneous key \[texts\] is not permitted/);
    assert.equal(answerEmbeddings('bedrock-invoke', 'amazon.titan-embed-text-v1', { inputText: 'x', dimensions: 256 }, {}).status, 400);
    assert.equal(answerEmbeddings('bedrock-invoke', titan, { inputText: 'x', dimensions: 300 }, {}).status, 400);
    const cohere = 'cohere.embed-english-v3';
    assert.equal(answerEmbeddings('bedrock-invoke', cohere, { texts: ['x'] }, {}).status, 400);
    assert.equal(answerEmbeddings('bedrock-invoke', cohere, { texts: Array(97).fill('x'), input_type: 'search_document' }, {}).status, 400);
    const ok = answerEmbeddings('bedrock-invoke', cohere, { texts: ['a', 'b'], input_type: 'search_query' }, {});
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['x-amzn-bedrock-input-token-count'], '2');
  });
});
