import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { GoogleGenAI, Modality } from '@google/genai';
import OpenAI from 'openai';
import { clearServiceAccountTokens } from '../../src/relay/channels/auth/google-service-account-token.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { VERTEX_TOKEN_PATH } from '../simulator/cloud-front.ts';
import { GEMINI_IMAGE_TOKENS } from '../simulator/google-images-dialect.ts';

/**
 * Images across wires: the OpenAI SDK's `images.generate` answered by Gemini image models
 * (`generateContent` with image output, on the Gemini API and on Vertex) and by Vertex Imagen
 * (`:predict`); @google/genai's `generateContent` with image output answered by an OpenAI-compatible
 * image channel, by Imagen, and by a Gemini image model (its body and reply passed through). The
 * strict simulator enforces each request shape; each is billed to the micro-USD.
 */
const SERVICE_ACCOUNT_EMAIL = 'switchyard@sim-project.iam.gserviceaccount.com';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC_PEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const PNG = '\x89PNG';

describe('images across the OpenAI, Gemini and Imagen wires', () => {
  let harness: Harness;
  let keyId: string;
  let openai: OpenAI;
  let genai: GoogleGenAI;

  before(async () => {
    clearServiceAccountTokens();
    harness = await startHarness({}, { clouds: { vertex: { serviceAccounts: { [SERVICE_ACCOUNT_EMAIL]: PUBLIC_PEM } } } });
    const sim = harness.simulator.url;
    const serviceAccount = JSON.stringify({
      type: 'service_account',
      project_id: 'sim-project',
      private_key: PRIVATE_PEM,
      client_email: SERVICE_ACCOUNT_EMAIL,
      token_uri: `${sim}${VERTEX_TOKEN_PATH}`,
    });
    await harness.addChannel({ provider: 'gemini', baseUrl: sim, models: ['nano'], modelMap: { nano: 'gemini-2.5-flash-image' } });
    await harness.addChannel({
      provider: 'vertex',
      baseUrl: sim,
      region: 'us-central1',
      project: 'sim-project',
      apiKey: serviceAccount,
      models: ['imagen', 'nano-vertex'],
      modelMap: { imagen: 'imagen-4.0-generate-001', 'nano-vertex': 'gemini-2.5-flash-image' },
    });
    await harness.addChannel({
      provider: 'openai',
      models: ['gpt-img', 'dalle'],
      modelMap: { 'gpt-img': 'gpt-image-1', dalle: 'dall-e-3' },
    });
    // Gemini image models: $30 per million image output tokens, $0.30 per million text input tokens.
    for (const model of ['nano', 'nano-vertex']) await harness.admin('POST', '/prices', { model, input: 0.3, output: 2.5, imageOutput: 30, perImage: 0.039 });
    await harness.admin('POST', '/prices', { model: 'imagen', input: 0, output: 0, perImage: 0.04 });
    await harness.admin('POST', '/prices', { model: 'gpt-img', input: 5, output: 0, imageOutput: 40, perImage: 0.25 });
    await harness.admin('POST', '/prices', {
      model: 'dalle',
      input: 0,
      output: 0,
      perImage: { '1024x1024': { standard: 0.04, hd: 0.08 }, '1792x1024': { standard: 0.08, hd: 0.12 } },
    });
    const created = await harness.addKey({ balance: 10 });
    keyId = created.id;
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: created.key, maxRetries: 0 });
    genai = new GoogleGenAI({ apiKey: created.key, httpOptions: { baseUrl: harness.url, apiVersion: 'v1beta' } });
  });
  after(() => harness.close());

  const lastLog = async () => (await harness.admin('GET', `/logs?key=${keyId}&limit=1`)).data[0];
  const lastUpstream = () => harness.simulator.requests.at(-1)!;
  const textTokens = (prompt: string) => Math.max(1, Math.ceil(prompt.length / 4));

  for (const [label, model, pathPattern] of [
    ['the Gemini API', 'nano', /\/v1beta\/models\/gemini-2\.5-flash-image:generateContent$/],
    ['Vertex', 'nano-vertex', /\/publishers\/google\/models\/gemini-2\.5-flash-image:generateContent$/],
  ] as const) {
    test(`OpenAI images.generate → a Gemini image model on ${label}: generateContent with image output, billed by image tokens`, async () => {
      const prompt = `a lighthouse at dusk on ${label}`;
      const reply = await openai.images.generate({ model, prompt, size: '1536x1024' });
      assert.equal(reply.data?.length, 1);
      assert.equal(Buffer.from(reply.data![0]!.b64_json!, 'base64').subarray(0, 4).toString('latin1'), PNG);
      assert.equal(reply.usage?.output_tokens, GEMINI_IMAGE_TOKENS);
      const sent = lastUpstream();
      assert.match(sent.path, pathPattern);
      const body = sent.body as { contents: unknown; generationConfig: Record<string, unknown> };
      assert.deepEqual(body.contents, [{ role: 'user', parts: [{ text: prompt }] }]);
      assert.deepEqual(body.generationConfig, { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '3:2' } });
      const row = await lastLog();
      assert.equal(row.status, 200);
      // Text tokens at $0.30/M (0.3 µUSD each) + 1,290 image tokens at $30/M (30 µUSD each).
      assert.equal(row.costMicros, Math.round(textTokens(prompt) * 0.3 + GEMINI_IMAGE_TOKENS * 30));
    });
  }

  test('OpenAI images.generate → Vertex Imagen: :predict with sampleCount and aspect ratio, billed per image; url answered as a data URL', async () => {
    const prompt = 'three paper boats';
    const reply = await openai.images.generate({ model: 'imagen', prompt, n: 3, size: '1024x1792', response_format: 'url' });
    assert.equal(reply.data?.length, 3);
    const url = reply.data![0]!.url!;
    assert.match(url, /^data:image\/png;base64,/);
    assert.equal(
      Buffer.from(await (await fetch(url)).arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
      PNG,
    );
    const sent = lastUpstream();
    assert.match(sent.path, /\/publishers\/google\/models\/imagen-4\.0-generate-001:predict$/);
    assert.deepEqual(sent.body, { instances: [{ prompt }], parameters: { sampleCount: 3, aspectRatio: '9:16' } });
    assert.equal((await lastLog()).costMicros, 3 * 40_000);
  });

  test('what a wire cannot carry is refused before any upstream call, unbilled: five images from Imagen, two from a Gemini image model, a stream', async () => {
    const before = harness.simulator.requests.length;
    for (const [model, n] of [
      ['imagen', 5],
      ['nano', 2],
    ] as const) {
      const refused = await openai.images.generate({ model, prompt: 'too many', n }).catch((error: unknown) => error);
      assert.ok(refused instanceof OpenAI.BadRequestError, String(refused));
      assert.match(refused.message, /cannot carry this \/v1\/images\/generations request/);
    }
    const streamed = await openai.images.generate({ model: 'nano', prompt: 'x', stream: true }).catch((error: unknown) => error);
    assert.ok(streamed instanceof OpenAI.BadRequestError);
    assert.match(streamed.message, /streamed partial images/);
    assert.equal(harness.simulator.requests.length, before);
  });

  test('@google/genai generateContent with image output → an OpenAI-compatible image channel (gpt-image): inlineData parts, billed by its image tokens', async () => {
    const prompt = 'a fox in the snow';
    const response = await genai.models.generateContent({
      model: 'gpt-img',
      contents: prompt,
      config: { responseModalities: [Modality.IMAGE], imageConfig: { aspectRatio: '16:9' } },
    });
    const parts = response.candidates?.[0]?.content?.parts ?? [];
    assert.equal(parts.length, 1);
    assert.equal(parts[0]!.inlineData?.mimeType, 'image/png');
    assert.equal(Buffer.from(parts[0]!.inlineData!.data!, 'base64').subarray(0, 4).toString('latin1'), PNG);
    assert.equal(response.data, parts[0]!.inlineData!.data);
    const sent = lastUpstream();
    assert.equal(sent.path, '/v1/images/generations');
    assert.deepEqual(sent.body, { model: 'gpt-image-1', prompt, n: 1, size: '1536x1024' });
    // gpt-image's default quality (medium) at 1536x1024: 1,584 tokens at $40/M, the prompt at $5/M.
    assert.equal(response.usageMetadata?.candidatesTokenCount, 1584);
    const row = await lastLog();
    assert.equal(row.status, 200);
    assert.equal(row.clientProtocol, 'gemini-generate-content');
    assert.equal(row.costMicros, textTokens(prompt) * 5 + 1584 * 40);
  });

  test('@google/genai → DALL·E 3 is asked for b64_json at its own landscape size and billed at that tier', async () => {
    const response = await genai.models.generateContent({
      model: 'dalle',
      contents: 'a wide meadow',
      config: { responseModalities: [Modality.IMAGE], imageConfig: { aspectRatio: '16:9' } },
    });
    assert.ok(response.data);
    assert.deepEqual(lastUpstream().body, { model: 'dall-e-3', prompt: 'a wide meadow', n: 1, size: '1792x1024', response_format: 'b64_json' });
    assert.equal((await lastLog()).costMicros, 80_000);
  });

  test('@google/genai → Vertex Imagen: the prompt and candidate count as :predict, images as inlineData', async () => {
    const response = await genai.models.generateContent({
      model: 'imagen',
      contents: 'two kites',
      config: { responseModalities: [Modality.IMAGE], candidateCount: 2 },
    });
    assert.equal(response.candidates?.[0]?.content?.parts?.filter((part) => part.inlineData !== undefined).length, 2);
    assert.deepEqual(lastUpstream().body, { instances: [{ prompt: 'two kites' }], parameters: { sampleCount: 2 } });
    assert.equal((await lastLog()).costMicros, 80_000);
  });

  test('@google/genai → a Gemini image model: the body and the reply pass through as sent, text beside the image billed as output', async () => {
    const request = { model: 'nano', contents: 'a teapot', config: { responseModalities: [Modality.TEXT, Modality.IMAGE], temperature: 0.4 } };
    const response = await genai.models.generateContent(request);
    const parts = response.candidates?.[0]?.content?.parts ?? [];
    assert.equal(parts[0]!.text, 'Here is your image.');
    assert.ok(parts[1]!.inlineData?.data);
    assert.deepEqual(response.usageMetadata?.candidatesTokensDetails, [
      { modality: 'IMAGE', tokenCount: GEMINI_IMAGE_TOKENS },
      { modality: 'TEXT', tokenCount: 5 },
    ]);
    const sent = lastUpstream().body as { generationConfig: Record<string, unknown> };
    assert.deepEqual(sent.generationConfig, { responseModalities: ['TEXT', 'IMAGE'], temperature: 0.4 });
    // Prompt tokens at $0.30/M, 1,290 image tokens at $30/M, 5 text tokens at $2.50/M.
    assert.equal((await lastLog()).costMicros, Math.round(textTokens('a teapot') * 0.3 + GEMINI_IMAGE_TOKENS * 30 + 5 * 2.5));
  });

  test("a Gemini image request that cannot be carried is refused in Gemini's error shape", async () => {
    const response = await fetch(`${harness.url}/v1beta/models/gpt-img:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': (await harness.addKey({ balance: 1 })).key, 'content-type': 'application/json' },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'make it blue' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] }],
        generationConfig: { responseModalities: ['IMAGE'] },
      }),
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { status: string; message: string } };
    assert.equal(body.error.status, 'INVALID_ARGUMENT');
    assert.match(body.error.message, /images given as input/);
  });
});
