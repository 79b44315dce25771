import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

type Json = Record<string, any>;

/**
 * Claude Code's newer fields on every lane: `context_management` (context editing) and
 * `anthropic-beta` flags the gateway does not know are never a 400; an Anthropic upstream gets
 * them unchanged; a translated lane drops them and says so (`x-switchyard-warnings`, usage row).
 * Also what Claude Code relies on: `message_start` carries the input usage, and count_tokens
 * answers for a model served by another protocol.
 */
const BETAS = 'claude-code-20250219,context-management-2025-06-27,interleaved-thinking-2025-05-14,some-future-beta-2026-11-01';
const UPSTREAMS = [
  { name: 'anthropic', model: 'cc-anthropic', provider: 'anthropic', translated: false },
  { name: 'openai', model: 'cc-openai', provider: 'openai', translated: true },
  { name: 'gemini', model: 'cc-gemini', provider: 'gemini', translated: true },
] as const;

describe("Claude Code's newer fields", { concurrency: false }, () => {
  let harness: Harness;
  let key: { id: string; key: string };

  before(async () => {
    harness = await startHarness();
    for (const upstream of UPSTREAMS) await harness.addChannel({ provider: upstream.provider, models: [upstream.model] });
    key = await harness.addKey();
  });
  after(() => harness.close());

  const send = (path: string, body: Json) =>
    fetch(`${harness.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key.key, 'anthropic-version': '2023-06-01', 'anthropic-beta': BETAS, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  for (const upstream of UPSTREAMS) {
    for (const stream of [false, true]) {
      test(`${upstream.name}${stream ? ' (streamed)' : ''}: context_management and unknown betas are accepted${upstream.translated ? ', dropped with warnings' : ' and passed through'}`, async () => {
        harness.simulator.enqueue({ text: 'Done.' });
        const response = await send('/v1/messages', {
          model: upstream.model,
          max_tokens: 256,
          stream,
          messages: [{ role: 'user', content: 'Summarise the repository.' }],
          context_management: { edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 30000 } }] },
        });
        const text = await response.text();
        assert.equal(response.status, 200, text);
        const upstreamRequest = harness.simulator.requests.at(-1)!;
        const warnings = response.headers.get('x-switchyard-warnings') ?? '';
        if (upstream.translated) {
          assert.ok(!upstreamRequest.rawBody.includes('context_management'), 'a translated body has no context_management');
          assert.equal(upstreamRequest.headers['anthropic-beta'], undefined);
          if (!stream) {
            assert.match(warnings, /unsupported:context_management/);
            assert.match(warnings, /unsupported:anthropic-beta/);
          }
        } else {
          assert.equal(upstreamRequest.headers['anthropic-beta'], BETAS, 'the betas reach Anthropic unchanged');
          assert.match(upstreamRequest.rawBody, /"context_management"/, 'and so does context_management');
          assert.doesNotMatch(warnings, /unsupported:/);
        }
        if (stream) {
          const event = (name: string) => text.split('\n').find((line) => line.startsWith('data:') && line.includes(`"${name}"`));
          if (upstream.translated) {
            // OpenAI and Gemini report usage at the end: Claude Code reads it from message_delta.
            assert.ok(JSON.parse(event('message_delta')!.slice(5)).usage.input_tokens > 0, 'message_delta carries the input usage');
          } else {
            assert.ok(JSON.parse(event('message_start')!.slice(5)).message.usage.input_tokens > 0, 'message_start carries the input usage');
          }
        }
        const { data } = await harness.admin('GET', `/logs?key=${key.id}&limit=1`);
        const rowWarnings: string[] = data[0].warnings;
        if (upstream.translated) {
          assert.ok(rowWarnings.includes('unsupported:context_management'), JSON.stringify(rowWarnings));
          assert.ok(rowWarnings.includes('unsupported:anthropic-beta'), JSON.stringify(rowWarnings));
        } else {
          assert.deepEqual(
            rowWarnings.filter((warning) => warning.startsWith('unsupported:')),
            [],
          );
        }
      });
    }
  }

  test('count_tokens answers for a model an OpenAI channel serves', async () => {
    const response = await send('/v1/messages/count_tokens', { model: 'cc-openai', messages: [{ role: 'user', content: 'How many tokens is this?' }] });
    assert.equal(response.status, 200);
    const body = (await response.json()) as Json;
    assert.ok(body.input_tokens > 0);
  });
});
