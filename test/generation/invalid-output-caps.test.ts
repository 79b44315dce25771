import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useThreeChannelHarness, type ThreeChannelHarness } from './three-channel-harness.ts';

/**
 * Issue 23, item 17: an output cap below 1 or not a whole number (max_tokens -1, 0, 0.5, "100"),
 * or a number of alternatives below 1, reserved nothing for output and was forwarded. Refused
 * with a 400 in the caller's own protocol, naming the field, before any upstream call — on the
 * passthrough lane (same protocol upstream) and on a translated one (another provider's channel).
 */
describe('output caps and numbers of alternatives below 1 or not whole numbers', () => {
  const gateway = useThreeChannelHarness();
  const post: ThreeChannelHarness['post'] = (...args) => gateway.post(...args);

  const openAiError = (field: string) => (body: any) => {
    assert.equal(body.error.type, 'invalid_request_error');
    assert.equal(body.error.param, field);
    return body.error.message as string;
  };
  const anthropicError = (body: any) => {
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'invalid_request_error');
    return body.error.message as string;
  };
  const geminiError = (body: any) => {
    assert.equal(body.error.code, 400);
    assert.equal(body.error.status, 'INVALID_ARGUMENT');
    return body.error.message as string;
  };

  const BAD = [-1, 0, 0.5, '100'];
  const chat = (model: string, extra: Record<string, unknown>) =>
    post('/v1/chat/completions', { authorization: `Bearer ${gateway.key}` }, { model, messages: [{ role: 'user', content: 'hi' }], ...extra });
  const responses = (model: string, extra: Record<string, unknown>) =>
    post('/v1/responses', { authorization: `Bearer ${gateway.key}` }, { model, input: 'hi', ...extra });
  const messages = (model: string, extra: Record<string, unknown>) =>
    post(
      '/v1/messages',
      { 'x-api-key': gateway.key, 'anthropic-version': '2023-06-01' },
      { model, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }], ...extra },
    );
  const gemini = (model: string, config: Record<string, unknown>, spelling = 'generationConfig') =>
    post(
      `/v1beta/models/${model}:generateContent`,
      { 'x-goog-api-key': gateway.key },
      { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], [spelling]: config },
    );

  const cases: Array<{
    name: string;
    field: string;
    send: (value: unknown, model: string) => ReturnType<typeof post>;
    check: (body: any) => string;
    models: string[];
  }> = [
    {
      name: 'OpenAI chat max_tokens',
      field: 'max_tokens',
      send: (value, model) => chat(model, { max_tokens: value }),
      check: openAiError('max_tokens'),
      models: ['m-openai', 'm-anthropic'],
    },
    {
      name: 'OpenAI chat max_completion_tokens',
      field: 'max_completion_tokens',
      send: (value, model) => chat(model, { max_completion_tokens: value }),
      check: openAiError('max_completion_tokens'),
      models: ['m-openai', 'm-gemini'],
    },
    { name: 'OpenAI chat n', field: 'n', send: (value, model) => chat(model, { n: value }), check: openAiError('n'), models: ['m-openai', 'm-gemini'] },
    {
      name: 'OpenAI Responses max_output_tokens',
      field: 'max_output_tokens',
      send: (value, model) => responses(model, { max_output_tokens: value }),
      check: openAiError('max_output_tokens'),
      models: ['m-openai', 'm-anthropic'],
    },
    {
      name: 'Anthropic max_tokens',
      field: 'max_tokens',
      send: (value, model) => messages(model, { max_tokens: value }),
      check: anthropicError,
      models: ['m-anthropic', 'm-openai'],
    },
    {
      name: 'Gemini maxOutputTokens',
      field: 'generationConfig.maxOutputTokens',
      send: (value, model) => gemini(model, { maxOutputTokens: value }),
      check: geminiError,
      models: ['m-gemini', 'm-openai'],
    },
    {
      name: 'Gemini candidateCount',
      field: 'generationConfig.candidateCount',
      send: (value, model) => gemini(model, { candidateCount: value }),
      check: geminiError,
      models: ['m-gemini', 'm-openai'],
    },
    {
      name: 'Gemini max_output_tokens (snake case)',
      field: 'generation_config.max_output_tokens',
      send: (value, model) => gemini(model, { max_output_tokens: value }, 'generation_config'),
      check: geminiError,
      models: ['m-gemini'],
    },
  ];

  for (const entry of cases) {
    for (const model of entry.models) {
      const lane = model === entry.models[0] ? 'passthrough' : 'translated';
      test(`${entry.name} of -1, 0, 0.5 or "100" (${lane} lane): 400 in the caller's shape naming the field; no upstream call`, async () => {
        for (const value of BAD) {
          gateway.harness.simulator.reset();
          const reply = await entry.send(value, model);
          assert.equal(reply.status, 400, `${JSON.stringify(value)}: ${JSON.stringify(reply.body)}`);
          const message = entry.check(reply.body);
          assert.ok(message.includes(`"${entry.field}"`), message);
          assert.match(message, /whole number of at least 1/);
          assert.equal(gateway.harness.simulator.requests.length, 0, `${JSON.stringify(value)} reached the provider`);
        }
      });
    }
  }

  test('valid caps and null still go through on every protocol', async () => {
    gateway.harness.simulator.reset();
    assert.equal((await chat('m-openai', { max_tokens: 1, n: 1 })).status, 200);
    assert.equal((await chat('m-openai', { max_tokens: null })).status, 200);
    assert.equal((await responses('m-openai', { max_output_tokens: 16 })).status, 200);
    assert.equal((await messages('m-anthropic', { max_tokens: 5 })).status, 200);
    assert.equal((await gemini('m-gemini', { maxOutputTokens: 5, candidateCount: 1 })).status, 200);
    assert.equal(gateway.harness.simulator.requests.length, 5);
  });
});
