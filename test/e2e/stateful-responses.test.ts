import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

type Json = Record<string, any>;

/**
 * Stateful Responses through the official openai SDK: `store` (on by default, as on OpenAI),
 * `previous_response_id`, `responses.retrieve` and `responses.delete`, on every upstream kind.
 * Non-OpenAI upstreams: the gateway keeps the turns and replays them. OpenAI Responses
 * upstream: the upstream keeps them, and the chain stays on the channel and key that made it.
 */
const UPSTREAMS = [
  { name: 'anthropic', model: 'stateful-anthropic', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-6', supportsResponses: false },
  { name: 'gemini', model: 'stateful-gemini', provider: 'gemini', upstreamModel: 'gemini-3-pro-preview', supportsResponses: false },
  { name: 'openai-chat', model: 'stateful-chat', provider: 'openai', upstreamModel: 'gpt-4o', supportsResponses: false },
] as const;
const OPENAI_RESPONSES_MODEL = 'stateful-openai';

describe('stateful Responses through the openai SDK', { concurrency: false }, () => {
  let harness: Harness;
  let client: OpenAI;
  let intruder: OpenAI;

  before(async () => {
    harness = await startHarness();
    for (const upstream of UPSTREAMS) {
      await harness.addChannel({
        provider: upstream.provider,
        models: [upstream.model],
        modelMap: { [upstream.model]: upstream.upstreamModel },
        supportsResponses: upstream.supportsResponses,
      });
    }
    // Two upstream keys: two OpenAI accounts, each of which knows only its own responses.
    await harness.addChannel({
      provider: 'openai',
      models: [OPENAI_RESPONSES_MODEL],
      modelMap: { [OPENAI_RESPONSES_MODEL]: 'gpt-5' },
      supportsResponses: true,
      apiKey: undefined,
      apiKeys: ['sk-upstream-account-one', 'sk-upstream-account-two'],
    });
    client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: (await harness.addKey()).key, maxRetries: 0 });
    intruder = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: (await harness.addKey()).key, maxRetries: 0 });
  });
  after(() => harness.close());

  const lastGenerate = (): Json => {
    const request = harness.simulator.requests.filter((recorded) => recorded.endpoint === 'generate').at(-1);
    assert.ok(request, 'the upstream got a request');
    return request as Json;
  };

  for (const upstream of UPSTREAMS) {
    for (const stream of [false, true]) {
      test(`${upstream.name}${stream ? ' (streamed)' : ''}: previous_response_id replays the conversation; retrieve and delete answer`, async () => {
        harness.simulator.enqueue({ text: 'The capital of France is Paris.' });
        const first = await create(client, { model: upstream.model, input: 'What is the capital of France?', instructions: 'Be brief.' }, stream);
        assert.match(first.id, /^resp_/);
        assert.equal(first.output_text, 'The capital of France is Paris.');
        // The create reply says what happened: the gateway kept it (not the store:false of a stateless reply).
        assert.equal((first as unknown as Json).store, true, 'the create reply says the turn was stored');
        assert.equal(first.previous_response_id, null);

        // Retrievable as soon as the reply ended (the turn is kept before the last byte).
        const retrieved = await client.responses.retrieve(first.id);
        assert.equal(retrieved.id, first.id);
        assert.equal(retrieved.output_text, 'The capital of France is Paris.');
        assert.equal((retrieved as unknown as Json).store, true);

        harness.simulator.enqueue({ text: 'About 2.1 million people.' });
        const second = await create(client, { model: upstream.model, input: 'And its population?', previous_response_id: first.id }, stream);
        assert.equal(second.output_text, 'About 2.1 million people.');
        assert.equal((second as unknown as Json).store, true);
        assert.equal(second.previous_response_id, first.id, 'the create reply names the turn it continues');
        const upstreamText = lastGenerate().rawBody as string;
        const order = ['What is the capital of France?', 'The capital of France is Paris.', 'And its population?'].map((text) => upstreamText.indexOf(text));
        assert.ok(
          order.every((at) => at >= 0),
          `the whole conversation reached the upstream: ${upstreamText}`,
        );
        assert.deepEqual(
          [...order].sort((a, b) => a - b),
          order,
          'in order',
        );
        assert.doesNotMatch(upstreamText, /previous_response_id/);
        // Instructions are not carried over, as on OpenAI.
        assert.doesNotMatch(upstreamText, /Be brief/);
        assert.equal((await client.responses.retrieve(second.id)).previous_response_id, first.id);

        // A third turn replays both earlier ones.
        harness.simulator.enqueue({ text: 'Yes.' });
        await create(client, { model: upstream.model, input: 'Is that a lot?', previous_response_id: second.id }, stream);
        const third = lastGenerate().rawBody as string;
        for (const text of ['What is the capital of France?', 'About 2.1 million people.', 'Is that a lot?']) assert.ok(third.includes(text), text);

        const deleted = await client.responses.delete(first.id);
        assert.equal(deleted, undefined === deleted ? deleted : deleted); // the SDK returns void for delete
        await assert.rejects(client.responses.retrieve(first.id), (error: unknown) => error instanceof OpenAI.NotFoundError);
        await assert.rejects(
          create(client, { model: upstream.model, input: 'again', previous_response_id: first.id }, stream),
          (error: unknown) =>
            error instanceof OpenAI.BadRequestError && error.code === 'previous_response_not_found' && /Previous response with id/.test(error.message),
        );
        // The turn after the deleted one cannot be replayed whole either.
        await assert.rejects(
          create(client, { model: upstream.model, input: 'again', previous_response_id: second.id }, stream),
          (error: unknown) => error instanceof OpenAI.BadRequestError && error.code === 'previous_response_not_found',
        );
      });
    }
  }

  test('another key can neither read, continue nor delete a response (404/400 in OpenAI shape)', async () => {
    harness.simulator.enqueue({ text: 'secret answer' });
    const mine = await client.responses.create({ model: 'stateful-anthropic', input: 'keep this' });
    await assert.rejects(intruder.responses.retrieve(mine.id), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError);
      assert.equal((error.error as Json).type, 'invalid_request_error');
      assert.match(error.message, new RegExp(`Response with id '${mine.id}' not found`));
      return true;
    });
    await assert.rejects(intruder.responses.delete(mine.id), (error: unknown) => error instanceof OpenAI.NotFoundError);
    const before = harness.simulator.requests.length;
    await assert.rejects(
      intruder.responses.create({ model: 'stateful-anthropic', input: 'continue theirs', previous_response_id: mine.id }),
      (error: unknown) => error instanceof OpenAI.BadRequestError && error.code === 'previous_response_not_found' && error.param === 'previous_response_id',
    );
    assert.equal(harness.simulator.requests.length, before, 'nothing reached the upstream');
    assert.equal((await client.responses.retrieve(mine.id)).output_text, 'secret answer', 'still there for its owner');
  });

  test('input_items lists the items used to generate a kept response, paged as OpenAI pages them; per key', async () => {
    harness.simulator.enqueue({ text: 'Paris.' });
    const first = await client.responses.create({ model: 'stateful-anthropic', input: 'Capital of France?', instructions: 'Be brief.' });
    harness.simulator.enqueue({ text: 'Berlin.' });
    const second = await client.responses.create({
      model: 'stateful-anthropic',
      previous_response_id: first.id,
      input: [
        { role: 'user', content: 'And Germany?' },
        { role: 'user', content: [{ type: 'input_text', text: 'One word.' }] },
      ],
    });
    // The SDK's auto-pagination walks every page with `after`; newest first by default.
    const all: Json[] = [];
    for await (const item of client.responses.inputItems.list(second.id, { limit: 1 })) all.push(item as unknown as Json);
    const texts = all.map((item) => item.content?.[0]?.text);
    assert.deepEqual(texts, ['One word.', 'And Germany?', 'Paris.', 'Capital of France?']);
    assert.deepEqual(
      all.map((item) => [item.type, item.role]),
      [
        ['message', 'user'],
        ['message', 'user'],
        ['message', 'assistant'],
        ['message', 'user'],
      ],
    );
    assert.equal(new Set(all.map((item) => item.id)).size, 4, 'every item has its own id');
    const page = await client.responses.inputItems.list(second.id, { order: 'asc', limit: 2 });
    assert.deepEqual(
      page.data.map((item) => (item as unknown as Json).content[0].text),
      ['Capital of France?', 'Paris.'],
    );
    assert.equal(page.has_more, true);
    const body = (await (
      await fetch(`${harness.url}/v1/responses/${second.id}/input_items?order=asc&limit=100`, { headers: { authorization: `Bearer ${client.apiKey}` } })
    ).json()) as Json;
    assert.equal(body.object, 'list');
    assert.equal(body.first_id, body.data[0].id);
    assert.equal(body.last_id, body.data.at(-1).id);
    assert.equal(body.has_more, false);
    // The first turn's own list is its input only.
    const own = await client.responses.inputItems.list(first.id);
    assert.deepEqual(
      own.data.map((item) => (item as unknown as Json).content[0].text),
      ['Capital of France?'],
    );

    await assert.rejects(intruder.responses.inputItems.list(second.id), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError);
      assert.match(error.message, new RegExp(`Response with id '${second.id}' not found`));
      return true;
    });
    await assert.rejects(client.responses.inputItems.list('resp_unknown'), (error: unknown) => error instanceof OpenAI.NotFoundError);
    await assert.rejects(
      client.responses.inputItems.list(second.id, { limit: 500 }),
      (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === 'limit',
    );
  });

  test('input_items of a response an OpenAI upstream keeps is listed there, with the key that created it', async () => {
    const created = await client.responses.create({ model: OPENAI_RESPONSES_MODEL, input: 'list me' });
    const creator = lastGenerate().headers.authorization;
    const page = await client.responses.inputItems.list(created.id, { limit: 5 });
    assert.deepEqual(
      page.data.map((item) => (item as unknown as Json).content[0].text),
      ['list me'],
    );
    const lookup = harness.simulator.requests.at(-1)!;
    assert.equal(lookup.method, 'GET');
    assert.equal(lookup.path, `/v1/responses/${created.id}/input_items`);
    assert.equal(lookup.query.limit, '5');
    assert.equal(lookup.headers.authorization, creator);
    await assert.rejects(intruder.responses.inputItems.list(created.id), (error: unknown) => error instanceof OpenAI.NotFoundError);
  });

  test('store: false keeps nothing', async () => {
    harness.simulator.enqueue({ text: 'forget me' });
    const response = await client.responses.create({ model: 'stateful-gemini', input: 'hi', store: false });
    assert.equal((response as unknown as Json).store, false);
    await assert.rejects(client.responses.retrieve(response.id), (error: unknown) => error instanceof OpenAI.NotFoundError);
  });

  test('a tool loop continued by previous_response_id reaches Anthropic with thinking, signed, before the tool result', async () => {
    harness.simulator.enqueue({
      reasoning: { text: 'I need the weather tool.' },
      toolCalls: [{ id: 'toolu_weather', name: 'get_weather', arguments: { city: 'Paris' } }],
    });
    const tools: OpenAI.Responses.Tool[] = [
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        strict: false,
      },
    ];
    const first = await client.responses.create({ model: 'stateful-anthropic', input: 'Weather in Paris?', tools, reasoning: { effort: 'high' } });
    const call = first.output.find((item) => item.type === 'function_call');
    assert.ok(call && call.type === 'function_call');
    harness.simulator.enqueue({ reasoning: { text: 'Sunny, say so.' }, text: 'It is sunny in Paris.' });
    const second = await client.responses.create({
      model: 'stateful-anthropic',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' }],
      tools,
      reasoning: { effort: 'high' },
    });
    assert.equal(second.output_text, 'It is sunny in Paris.');
    const body = lastGenerate().body as Json;
    const assistant = body.messages.at(-2);
    assert.equal(assistant.role, 'assistant');
    assert.equal(assistant.content[0].type, 'thinking', 'the replayed turn starts with the signed thinking block');
    assert.equal(assistant.content.at(-1).type, 'tool_use');
    assert.equal(body.messages.at(-1).content[0].type, 'tool_result');
  });

  for (const stream of [false, true]) {
    test(`OpenAI Responses upstream${stream ? ' (streamed)' : ''}: the chain stays on the channel and upstream key that created it`, async () => {
      const first = await create(client, { model: OPENAI_RESPONSES_MODEL, input: 'remember 42' }, stream);
      const creator = lastGenerate().headers.authorization;
      // Several turns in a row: round robin would alternate the keys; the pin must not.
      let previous = first.id;
      for (let turn = 0; turn < 3; turn += 1) {
        const next = await create(client, { model: OPENAI_RESPONSES_MODEL, input: `turn ${turn}`, previous_response_id: previous }, stream);
        const upstream = lastGenerate();
        assert.equal(upstream.headers.authorization, creator, 'same upstream key');
        assert.equal((upstream.body as Json).previous_response_id, previous, 'the upstream continues its own chain');
        previous = next.id;
      }
      // Read and deleted where it lives, with the key that created it.
      const retrieved = await client.responses.retrieve(first.id);
      assert.equal(retrieved.id, first.id);
      const lookup = harness.simulator.requests.at(-1)!;
      assert.equal(lookup.method, 'GET');
      assert.equal(lookup.headers.authorization, creator);
      await assert.rejects(intruder.responses.retrieve(first.id), (error: unknown) => error instanceof OpenAI.NotFoundError);
      await client.responses.delete(first.id);
      assert.equal(harness.simulator.requests.at(-1)!.method, 'DELETE');
      await assert.rejects(client.responses.retrieve(first.id), (error: unknown) => error instanceof OpenAI.NotFoundError);
    });
  }
});

async function create(client: OpenAI, body: OpenAI.Responses.ResponseCreateParamsNonStreaming, stream: boolean): Promise<OpenAI.Responses.Response> {
  if (!stream) return client.responses.create(body);
  const events = await client.responses.create({ ...body, stream: true });
  let final: OpenAI.Responses.Response | undefined;
  for await (const event of events) {
    if (event.type === 'response.completed') final = event.response;
  }
  assert.ok(final, 'the stream completed');
  // The SDK adds output_text to non-streamed replies only.
  const text = final.output
    .flatMap((item) => (item.type === 'message' ? item.content : []))
    .map((part) => (part.type === 'output_text' ? part.text : ''))
    .join('');
  return { ...final, output_text: text };
}
