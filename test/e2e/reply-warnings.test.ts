import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * Reply-side losses are warned like request-side ones: cache-write tokens an Anthropic upstream
 * reports have no field in OpenAI usage. A plain reply names it in `x-switchyard-warnings` (it is
 * decoded before its headers go out) and on the usage row; a stream, whose headers left first,
 * on the usage row. The same reply to an Anthropic client loses nothing and warns nothing.
 */
describe('reply-side loss warnings', { concurrency: false }, () => {
  let harness: Harness;
  let client: OpenAI;
  let key: string;

  before(async () => {
    harness = await startHarness();
    await harness.addChannel({ provider: 'anthropic', models: ['warn-claude'], modelMap: { 'warn-claude': 'claude-sonnet-4-6' } });
    ({ key } = await harness.addKey());
    client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(() => harness.close());

  const lastLogWarnings = async (requestId: string): Promise<string[]> => {
    let warnings: string[] | undefined;
    await waitFor(async () => {
      const { data } = await harness.admin('GET', '/logs?limit=5');
      warnings = data.find((row: { requestId: string }) => row.requestId === requestId)?.warnings;
      return warnings !== undefined;
    }, 'the usage row');
    return warnings ?? [];
  };

  test('plain chat reply: cache writes are warned in the header and on the usage row', async () => {
    harness.simulator.enqueue({ text: 'cached', usage: { input: 1200, output: 3, cacheWrite: 1000 } });
    const { data, response } = await client.chat.completions.create({ model: 'warn-claude', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    assert.equal(data.usage?.prompt_tokens, 1200);
    assert.match(response.headers.get('x-switchyard-warnings') ?? '', /unsupported:cache_write_tokens/);
    assert.ok((await lastLogWarnings(response.headers.get('x-request-id')!)).includes('unsupported:cache_write_tokens'));
  });

  test('streamed Responses reply: cache writes are warned on the usage row', async () => {
    harness.simulator.enqueue({ text: 'cached stream', usage: { input: 900, output: 3, cacheWrite: 800 } });
    const { data: stream, response } = await client.responses.create({ model: 'warn-claude', input: 'hi', stream: true, store: false }).withResponse();
    for await (const _event of stream) {
      // drain
    }
    assert.ok((await lastLogWarnings(response.headers.get('x-request-id')!)).includes('unsupported:cache_write_tokens'));
  });

  test('no cache writes, no warning', async () => {
    harness.simulator.enqueue({ text: 'plain', usage: { input: 10, output: 1 } });
    const { response } = await client.chat.completions.create({ model: 'warn-claude', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    assert.doesNotMatch(response.headers.get('x-switchyard-warnings') ?? '', /cache_write/);
  });

  test('an Anthropic client sees cache_creation_input_tokens itself: no warning', async () => {
    harness.simulator.enqueue({ text: 'cached', usage: { input: 1200, output: 3, cacheWrite: 1000 } });
    const response = await fetch(`${harness.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'warn-claude', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = (await response.json()) as { usage: { cache_creation_input_tokens?: number } };
    assert.equal(body.usage.cache_creation_input_tokens, 1000);
    assert.doesNotMatch(response.headers.get('x-switchyard-warnings') ?? '', /cache_write/);
  });
});
