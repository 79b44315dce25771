import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';

/**
 * Image generation from the official OpenAI SDK through the same keys, groups, limits and bills
 * as text, to OpenAI-compatible and Azure channels in the strict simulator; priced per image by
 * size × quality, or by image tokens, to the micro-USD; a failed-over request billed once.
 */
const AZURE_KEY = 'azure-resource-key-0123456789abcdef';
/** USD per image by size × quality (dall-e-3's list prices). */
const DALLE3_TABLE = { '1024x1024': { standard: 0.04, hd: 0.08 }, '1792x1024': { standard: 0.08, hd: 0.12 } };

describe('images through the OpenAI SDK', () => {
  let harness: Harness;
  let key: string;
  let keyId: string;
  let openai: OpenAI;

  before(async () => {
    harness = await startHarness({}, { clouds: { azure: { apiKey: AZURE_KEY } } });
    const sim = harness.simulator.url;
    await harness.addChannel({
      provider: 'openai',
      models: ['img-openai', 'img-tokens', 'img-failover', 'img-unpriced-tier'],
      modelMap: { 'img-openai': 'dall-e-3', 'img-tokens': 'gpt-image-1', 'img-failover': 'dall-e-2', 'img-unpriced-tier': 'dall-e-3' },
    });
    await harness.addChannel({
      provider: 'azure',
      baseUrl: sim,
      apiKey: AZURE_KEY,
      models: ['img-azure', 'img-failover'],
      modelMap: { 'img-azure': 'dall-e-3', 'img-failover': 'dall-e-2' },
      priority: 0,
    });
    await harness.addChannel({ provider: 'anthropic', models: ['chat-only'] });
    for (const model of ['img-openai', 'img-azure']) await harness.admin('POST', '/prices', { model, input: 0, output: 0, perImage: DALLE3_TABLE });
    await harness.admin('POST', '/prices', { model: 'img-unpriced-tier', input: 0, output: 0, perImage: { '1024x1024': { standard: 0.04 } } });
    await harness.admin('POST', '/prices', { model: 'img-failover', input: 0, output: 0, perImage: 0.02 });
    // gpt-image-1: $5 per million text input tokens, $40 per million image output tokens.
    await harness.admin('POST', '/prices', { model: 'img-tokens', input: 5, output: 0, imageOutput: 40, perImage: 0.25 });
    ({ key, id: keyId } = await harness.addKey({ balance: 10 }));
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(() => harness.close());

  const lastLog = async () => (await harness.admin('GET', `/logs?key=${keyId}&limit=1`)).data[0];

  test('the admin API keeps the image prices as given', async () => {
    const prices = (await harness.admin('GET', '/prices')).data;
    const price = prices.find((entry: { model: string }) => entry.model === 'img-openai');
    assert.deepEqual(price.perImage, DALLE3_TABLE);
    assert.equal(prices.find((entry: { model: string }) => entry.model === 'img-tokens').imageOutput, 40);
    const bad = await fetch(`${harness.url}/api/admin/prices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'x', input: 0, output: 0, perImage: { '1024x1024': { hd: -1 } } }),
    });
    assert.equal(bad.status, 400);
  });

  for (const [kind, model] of [
    ['openai', 'img-openai'],
    ['azure', 'img-azure'],
  ] as const) {
    for (const [size, quality, usd] of [
      ['1024x1024', 'standard', 0.04],
      ['1024x1024', 'hd', 0.08],
      ['1792x1024', 'hd', 0.12],
    ] as const) {
      test(`${kind}: images.generate ${size} ${quality} is billed ${usd} USD to the micro-USD`, async () => {
        const reply = await openai.images.generate({ model, prompt: `a lighthouse ${size} ${quality}`, size, quality, response_format: 'b64_json' });
        assert.equal(reply.data?.length, 1);
        assert.equal(Buffer.from(reply.data![0]!.b64_json!, 'base64').subarray(1, 4).toString(), 'PNG');
        const row = await lastLog();
        assert.equal(row.status, 200);
        assert.equal(row.model, model);
        assert.equal(row.costMicros, Math.round(usd * 1_000_000));
      });
    }
  }

  test('image tokens are billed when the upstream counts them (gpt-image), with the prompt as text input', async () => {
    const prompt = 'a red bicycle leaning on a wall';
    const reply = await openai.images.generate({ model: 'img-tokens', prompt, size: '1536x1024', quality: 'high', n: 2 });
    assert.equal(reply.data?.length, 2);
    assert.equal(reply.usage?.output_tokens, 2 * 6240);
    const textTokens = Math.ceil(prompt.length / 4);
    assert.equal((await lastLog()).costMicros, textTokens * 5 + 2 * 6240 * 40);
  });

  test('streamed partial images arrive as the upstream streams them; the completed image is billed when the stream ends', async () => {
    const prompt = 'a stream of light';
    const stream = await openai.images.generate({ model: 'img-tokens', prompt, size: '1024x1024', quality: 'low', stream: true, partial_images: 2 });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    assert.deepEqual(types, ['image_generation.partial_image', 'image_generation.partial_image', 'image_generation.completed']);
    const textTokens = Math.ceil(prompt.length / 4);
    let row = await lastLog();
    for (let tries = 0; row.costMicros === undefined && tries < 20; tries += 1) row = await lastLog();
    assert.equal(row.status, 200);
    assert.equal(row.costMicros, textTokens * 5 + 272 * 40);
  });

  test('a failed-over image request is billed once, for the channel that answered', async () => {
    harness.simulator.enqueue({ fault: { type: 'status', status: 503 } });
    const reply = await openai.images.generate({ model: 'img-failover', prompt: 'fail me over', n: 3, size: '256x256' });
    assert.equal(reply.data?.length, 3);
    const row = await lastLog();
    assert.equal(row.status, 200);
    assert.equal(row.attempts.length, 2);
    assert.equal(row.attempts[0].status, 503);
    assert.equal(row.costMicros, 3 * 20_000);
  });

  test("refusals in OpenAI's shape, before any upstream call and unbilled", async () => {
    const before = harness.simulator.requests.length;
    const tier = await openai.images.generate({ model: 'img-unpriced-tier', prompt: 'x', size: '1792x1024', quality: 'hd' }).catch((error: unknown) => error);
    assert.ok(tier instanceof OpenAI.BadRequestError);
    assert.match(tier.message, /no image price for size "1792x1024" and quality "hd"/);
    const noPrompt = await openai.images.generate({ model: 'img-openai' } as never).catch((error: unknown) => error);
    assert.ok(noPrompt instanceof OpenAI.BadRequestError);
    assert.equal((noPrompt as InstanceType<typeof OpenAI.BadRequestError>).param, 'prompt');
    const partials = await openai.images
      .generate({ model: 'img-tokens', prompt: 'x', stream: true, partial_images: 7 } as never)
      .catch((error: unknown) => error);
    assert.ok(partials instanceof OpenAI.BadRequestError);
    assert.equal((partials as InstanceType<typeof OpenAI.BadRequestError>).param, 'partial_images');
    const unknown = await openai.images.generate({ model: 'img-nothing', prompt: 'x' }).catch((error: unknown) => error);
    assert.ok(unknown instanceof OpenAI.NotFoundError);
    const chatOnly = await openai.images.generate({ model: 'chat-only', prompt: 'x' }).catch((error: unknown) => error);
    assert.ok(chatOnly instanceof OpenAI.BadRequestError);
    assert.match(chatOnly.message, /no \/v1\/images\/generations endpoint/);
    const noKey = await fetch(`${harness.url}/v1/images/generations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'img-openai', prompt: 'x' }),
    });
    assert.equal(noKey.status, 401);
    assert.equal(((await noKey.json()) as { error: { code: string } }).error.code, 'invalid_api_key');
    assert.equal(harness.simulator.requests.length, before);
    assert.equal((await lastLog()).costMicros, 0);
  });

  test('the simulator refuses what OpenAI refuses (a size the model lacks), passed on as a 400', async () => {
    const wrong = await openai.images.generate({ model: 'img-tokens', prompt: 'x', size: '256x256' }).catch((error: unknown) => error);
    assert.ok(wrong instanceof OpenAI.BadRequestError);
    assert.match(wrong.message, /size|256x256/);
  });

  test('a key without balance for the images is refused before the upstream', async () => {
    const poor = await harness.addKey({ balance: 0.05 });
    const client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: poor.key, maxRetries: 0 });
    const refused = await client.images
      .generate({ model: 'img-openai', prompt: 'two of them', size: '1024x1024', quality: 'hd' })
      .catch((error: unknown) => error);
    assert.ok(refused instanceof OpenAI.PermissionDeniedError);
    const fits = await client.images.generate({ model: 'img-openai', prompt: 'one cheap one', size: '1024x1024', quality: 'standard' });
    assert.equal(fits.data?.length, 1);
  });
});
