import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useThreeChannelHarness, type ThreeChannelHarness } from './three-channel-harness.ts';

/**
 * A body without the field that carries the conversation is refused with a 400 in the caller's
 * own protocol, naming the field, before any upstream call: on the passthrough lane (client and
 * channel speak the same protocol) nothing else would stop it reaching the provider.
 */
describe('a body without its conversation field', () => {
  const gateway = useThreeChannelHarness();
  const post: ThreeChannelHarness['post'] = (...args) => gateway.post(...args);

  const cases = [
    {
      name: 'OpenAI chat without messages',
      field: 'messages',
      send: (stream: boolean) => post('/v1/chat/completions', { authorization: `Bearer ${gateway.key}` }, { model: 'm-openai', stream }),
      check: (body: any) => {
        assert.equal(body.error.type, 'invalid_request_error');
        assert.equal(body.error.param, 'messages');
        return body.error.message as string;
      },
    },
    {
      name: 'OpenAI Responses without input',
      field: 'input',
      send: (stream: boolean) => post('/v1/responses', { authorization: `Bearer ${gateway.key}` }, { model: 'm-openai', stream, instructions: 'be brief' }),
      check: (body: any) => {
        assert.equal(body.error.type, 'invalid_request_error');
        assert.equal(body.error.param, 'input');
        return body.error.message as string;
      },
    },
    {
      name: 'Anthropic Messages without messages',
      field: 'messages',
      send: (stream: boolean) =>
        post('/v1/messages', { 'x-api-key': gateway.key, 'anthropic-version': '2023-06-01' }, { model: 'm-anthropic', max_tokens: 20, stream, messages: null }),
      check: (body: any) => {
        assert.equal(body.type, 'error');
        assert.equal(body.error.type, 'invalid_request_error');
        return body.error.message as string;
      },
    },
    {
      name: 'Gemini without contents',
      field: 'contents',
      send: (stream: boolean) =>
        post(
          `/v1beta/models/m-gemini:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
          { 'x-goog-api-key': gateway.key },
          {
            generationConfig: { maxOutputTokens: 20 },
          },
        ),
      check: (body: any) => {
        assert.equal(body.error.code, 400);
        assert.equal(body.error.status, 'INVALID_ARGUMENT');
        return body.error.message as string;
      },
    },
  ];

  for (const entry of cases) {
    for (const stream of [false, true]) {
      test(`${entry.name}${stream ? ' (streamed)' : ''}: 400 in the caller's shape naming the field; no upstream call`, async () => {
        gateway.harness.simulator.reset();
        const reply = await entry.send(stream);
        assert.equal(reply.status, 400);
        assert.match(entry.check(reply.body), new RegExp(`"${entry.field}"`));
        assert.equal(gateway.harness.simulator.requests.length, 0, 'the provider saw no request');
      });
    }
  }

  test('the refusal is logged as one usage row with the invalid_request code', async () => {
    await post('/v1/chat/completions', { authorization: `Bearer ${gateway.key}` }, { model: 'm-openai' });
    const { data } = await gateway.harness.admin('GET', '/logs?limit=1');
    assert.equal(data[0].status, 400);
    assert.equal(data[0].errorCode, 'invalid_request');
    assert.deepEqual(data[0].attempts, []);
  });

  test('a body with the field still goes through', async () => {
    gateway.harness.simulator.reset();
    const reply = await post(
      '/v1/chat/completions',
      { authorization: `Bearer ${gateway.key}` },
      { model: 'm-openai', messages: [{ role: 'user', content: 'hi' }] },
    );
    assert.equal(reply.status, 200);
    assert.equal(gateway.harness.simulator.requests.length, 1);
  });
});
