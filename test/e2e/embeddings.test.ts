import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { clearServiceAccountTokens } from '../../src/relay/channels/auth/google-service-account-token.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { VERTEX_TOKEN_PATH } from '../simulator/cloud-front.ts';
import { defaultDimensions, simulatedTokens, simulatedVector } from '../simulator/embeddings-dialect.ts';

/**
 * Embeddings from the official OpenAI SDK and @google/genai to every kind that serves them
 * (OpenAI, Azure OpenAI, the Gemini API, Vertex AI, Bedrock Titan and Cohere), against a
 * simulator that enforces each provider's request rules; billed by input tokens.
 */
const AZURE_KEY = 'azure-resource-key-0123456789abcdef';
const AWS_ACCESS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const SERVICE_ACCOUNT_EMAIL = 'switchyard@sim-project.iam.gserviceaccount.com';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC_PEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** Public model → the upstream model its channel maps it to, and whether the upstream counts tokens. */
const UPSTREAMS = [
  { kind: 'openai', model: 'emb-openai', upstream: 'text-embedding-3-small', counts: true, wire: 'openai-embeddings' },
  { kind: 'azure', model: 'emb-azure', upstream: 'text-embedding-3-large', counts: true, wire: 'openai-embeddings' },
  { kind: 'gemini', model: 'emb-gemini', upstream: 'gemini-embedding-001', counts: false, wire: 'gemini-batch-embed' },
  { kind: 'vertex text-embedding', model: 'emb-vertex', upstream: 'text-embedding-005', counts: true, wire: 'vertex-predict' },
  { kind: 'vertex gemini-embedding', model: 'emb-vertex-gemini', upstream: 'gemini-embedding-001', counts: true, wire: 'vertex-predict' },
  { kind: 'bedrock titan', model: 'emb-titan', upstream: 'amazon.titan-embed-text-v2:0', counts: true, wire: 'bedrock-titan' },
  { kind: 'bedrock cohere', model: 'emb-cohere', upstream: 'cohere.embed-english-v3', counts: true, wire: 'bedrock-cohere' },
] as const;

const TEXTS = ['The quick brown fox', 'jumps over the lazy dog', 'embeddings are vectors'];
const INPUT_PRICE = 3; // USD per million input tokens = 3 micro-USD per token

describe('embeddings through the real SDKs', () => {
  let harness: Harness;
  let key: string;
  let keyId: string;
  let openai: OpenAI;
  let genai: GoogleGenAI;

  before(async () => {
    clearServiceAccountTokens();
    harness = await startHarness(
      {},
      {
        clouds: {
          azure: { apiKey: AZURE_KEY },
          vertex: { serviceAccounts: { [SERVICE_ACCOUNT_EMAIL]: PUBLIC_PEM } },
          bedrock: { credentials: { [AWS_ACCESS_KEY]: AWS_SECRET } },
        },
      },
    );
    const sim = harness.simulator.url;
    const serviceAccount = JSON.stringify({
      type: 'service_account',
      project_id: 'sim-project',
      private_key: PRIVATE_PEM,
      client_email: SERVICE_ACCOUNT_EMAIL,
      token_uri: `${sim}${VERTEX_TOKEN_PATH}`,
    });
    await harness.addChannel({
      provider: 'openai',
      models: ['emb-openai', 'emb-failover'],
      modelMap: { 'emb-openai': 'text-embedding-3-small', 'emb-failover': 'text-embedding-3-small' },
    });
    await harness.addChannel({
      provider: 'azure',
      baseUrl: sim,
      apiKey: AZURE_KEY,
      models: ['emb-azure'],
      modelMap: { 'emb-azure': 'text-embedding-3-large' },
    });
    await harness.addChannel({ provider: 'gemini', baseUrl: sim, models: ['emb-gemini'], modelMap: { 'emb-gemini': 'gemini-embedding-001' } });
    await harness.addChannel({
      provider: 'vertex',
      baseUrl: sim,
      region: 'us-central1',
      project: 'sim-project',
      apiKey: serviceAccount,
      models: ['emb-vertex', 'emb-vertex-gemini'],
      modelMap: { 'emb-vertex': 'text-embedding-005', 'emb-vertex-gemini': 'gemini-embedding-001' },
    });
    await harness.addChannel({
      provider: 'bedrock',
      baseUrl: sim,
      region: 'us-east-1',
      apiKey: `${AWS_ACCESS_KEY}:${AWS_SECRET}`,
      models: ['emb-titan', 'emb-cohere', 'emb-failover'],
      modelMap: { 'emb-titan': 'amazon.titan-embed-text-v2:0', 'emb-cohere': 'cohere.embed-english-v3', 'emb-failover': 'amazon.titan-embed-text-v2:0' },
      priority: 0,
    });
    await harness.addChannel({ provider: 'anthropic', models: ['chat-only'] });
    for (const upstream of UPSTREAMS) await harness.admin('POST', '/prices', { model: upstream.model, input: INPUT_PRICE, output: 0 });
    ({ key, id: keyId } = await harness.addKey({ balance: 10 }));
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
    genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: harness.url, apiVersion: 'v1beta' } });
  });
  after(() => harness.close());

  const lastLog = async () => (await harness.admin('GET', `/logs?key=${keyId}&limit=1`)).data[0];
  const expectedTokens = (texts: readonly string[]) => texts.reduce((sum, text) => sum + simulatedTokens(text), 0);

  for (const upstream of UPSTREAMS) {
    describe(`to ${upstream.kind}`, () => {
      test('OpenAI SDK: vectors, usage, the usage row and its exact cost', async () => {
        const reply = await openai.embeddings.create({ model: upstream.model, input: [...TEXTS] });
        assert.equal(reply.data.length, TEXTS.length);
        TEXTS.forEach((text, index) => {
          assert.equal(reply.data[index]?.index, index);
          assert.deepEqual(reply.data[index]?.embedding, simulatedVector(upstream.upstream, text, defaultDimensions(upstream.upstream)));
        });
        const tokens = expectedTokens(TEXTS);
        assert.equal(reply.usage.prompt_tokens, tokens);
        const row = await lastLog();
        assert.equal(row.status, 200);
        assert.equal(row.model, upstream.model);
        assert.equal(row.upstreamModel, upstream.upstream);
        assert.equal(row.clientProtocol, 'openai-embeddings');
        assert.equal(row.upstreamProtocol, upstream.wire);
        assert.equal(row.inputTokens, tokens);
        assert.equal(row.outputTokens, 0);
        assert.equal(row.costMicros, tokens * INPUT_PRICE);
        assert.equal(row.warnings.includes('estimated:usage'), !upstream.counts, JSON.stringify(row.warnings));
      });

      test('@google/genai embedContent (batchEmbedContents on the wire)', async () => {
        const reply = await genai.models.embedContent({ model: upstream.model, contents: [...TEXTS] });
        assert.equal(reply.embeddings?.length, TEXTS.length);
        TEXTS.forEach((text, index) => {
          assert.deepEqual(reply.embeddings?.[index]?.values, simulatedVector(upstream.upstream, text, defaultDimensions(upstream.upstream)));
        });
        const row = await lastLog();
        assert.equal(row.clientProtocol, 'gemini-batch-embed-contents');
        assert.equal(row.costMicros, expectedTokens(TEXTS) * INPUT_PRICE);
      });
    });
  }

  test('Gemini :embedContent (one content) with outputDimensionality', async () => {
    const response = await fetch(`${harness.url}/v1beta/models/emb-vertex:embedContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ content: { parts: [{ text: 'hello' }, { text: 'world' }] }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 64 }),
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { embedding: { values: number[] } };
    assert.deepEqual(body.embedding.values, simulatedVector('text-embedding-005', 'hello\nworld', 64));
    const sent = harness.simulator.lastRequest()?.body as any;
    assert.deepEqual(sent, { instances: [{ content: 'hello\nworld', task_type: 'RETRIEVAL_QUERY' }], parameters: { outputDimensionality: 64 } });
  });

  test('OpenAI float format, and dimensions translated to Titan', async () => {
    const reply = await openai.embeddings.create({ model: 'emb-titan', input: 'one text', dimensions: 256, encoding_format: 'float' });
    assert.deepEqual(reply.data[0]?.embedding, simulatedVector('amazon.titan-embed-text-v2:0', 'one text', 256));
    assert.deepEqual(harness.simulator.lastRequest()?.body, { inputText: 'one text', dimensions: 256 });
  });

  test('batches larger than one upstream call are split on the same channel (Cohere: 96 a call; Titan: 1)', async () => {
    const texts = Array.from({ length: 100 }, (_, index) => `text number ${index}`);
    const before = harness.simulator.requests.length;
    const reply = await openai.embeddings.create({ model: 'emb-cohere', input: texts });
    assert.equal(reply.data.length, 100);
    assert.deepEqual(reply.data[99]?.embedding, simulatedVector('cohere.embed-english-v3', 'text number 99', 1024));
    const calls = harness.simulator.requests.slice(before).filter((request) => request.endpoint === 'embed');
    assert.deepEqual(
      calls.map((call) => (call.body as { texts: string[] }).texts.length),
      [96, 4],
    );
    assert.equal((calls[0]?.body as { input_type: string }).input_type, 'search_document');
    assert.equal(reply.usage.prompt_tokens, expectedTokens(texts));
    assert.equal((await lastLog()).costMicros, expectedTokens(texts) * INPUT_PRICE);
  });

  test("an upstream's refusal of the request comes back in the caller's shape and is not retried", async () => {
    const before = harness.simulator.requests.length;
    const refused = await openai.embeddings.create({ model: 'emb-titan', input: 'x', dimensions: 300 }).catch((error: unknown) => error);
    assert.ok(refused instanceof OpenAI.BadRequestError);
    assert.match(refused.message, /dimensions: 300 is not a valid enum value/);
    assert.equal(harness.simulator.requests.length - before, 1);
    const row = await lastLog();
    assert.equal(row.status, 400);
    assert.equal(row.costMicros, 0);
  });

  test('a failing channel fails over to the next one serving the model', async () => {
    // emb-failover: the bedrock channel (priority 0) and the openai channel; make the first tried fail.
    harness.simulator.enqueue({ fault: { type: 'status', status: 503 } });
    const reply = await openai.embeddings.create({ model: 'emb-failover', input: 'fail me over' });
    assert.equal(reply.data.length, 1);
    const row = await lastLog();
    assert.equal(row.status, 200);
    assert.equal(row.attempts.length, 2);
    assert.equal(row.attempts[0].status, 503);
  });

  test("refusals in the caller's shape: unknown model, no key, a model no channel can embed, bad input", async () => {
    const unknown = await openai.embeddings.create({ model: 'emb-nothing', input: 'x' }).catch((error: unknown) => error);
    assert.ok(unknown instanceof OpenAI.NotFoundError);
    const noKey = await fetch(`${harness.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'emb-openai', input: 'x' }),
    });
    assert.equal(noKey.status, 401);
    assert.equal(((await noKey.json()) as any).error.code, 'invalid_api_key');
    const chatOnly = await openai.embeddings.create({ model: 'chat-only', input: 'x' }).catch((error: unknown) => error);
    assert.ok(chatOnly instanceof OpenAI.BadRequestError);
    assert.match(chatOnly.message, /anthropic channels, which have no embeddings endpoint/);
    const empty = await openai.embeddings.create({ model: 'emb-openai', input: ['a', ''] }).catch((error: unknown) => error);
    assert.ok(empty instanceof OpenAI.BadRequestError);
    assert.match(empty.message, /input\[1\]/);

    const gemini = await fetch(`${harness.url}/v1beta/models/emb-nothing:batchEmbedContents`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ requests: [{ model: 'models/emb-nothing', content: { parts: [{ text: 'x' }] } }] }),
    });
    assert.equal(gemini.status, 404);
    assert.equal(((await gemini.json()) as any).error.status, 'NOT_FOUND');
    const tooMany = await fetch(`${harness.url}/v1beta/models/emb-gemini:batchEmbedContents`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ requests: Array.from({ length: 101 }, () => ({ model: 'models/emb-gemini', content: { parts: [{ text: 'x' }] } })) }),
    });
    assert.equal(tooMany.status, 400);
    assert.equal(((await tooMany.json()) as any).error.status, 'INVALID_ARGUMENT');
  });
});
