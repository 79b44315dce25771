import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { GatewayError } from '../../core/gateway-error.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { withCannedReply } from '../../../test/helpers/serve-canned-reply.ts';
import { openaiResponsesCodec } from './index.ts';

function encodeStream(events: StreamEvent[]): string {
  const encoder = openaiResponsesCodec.createStreamEncoder(createFixedRuntime());
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
}

const start: StreamEvent = { type: 'response-start', id: 'resp_abc', model: 'gpt-test', createdAt: 1_700_000_000_000 };

const fullStream: StreamEvent[] = [
  start,
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'Think ' },
  { type: 'reasoning-delta', id: 'r', delta: 'first.' },
  { type: 'reasoning-end', id: 'r', providerMetadata: { openai: { encryptedContent: 'enc123' } } },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Calling ' },
  { type: 'text-delta', id: 't', delta: 'tools.' },
  { type: 'text-end', id: 't' },
  { type: 'tool-call-start', id: 'a', callId: 'call_1', name: 'shell' },
  { type: 'tool-call-delta', id: 'a', argumentsDelta: '{"cmd":' },
  { type: 'tool-call-delta', id: 'a', argumentsDelta: '"ls"}' },
  { type: 'tool-call-end', id: 'a' },
  { type: 'tool-call-start', id: 'b', callId: 'call_2', name: 'read' },
  { type: 'tool-call-delta', id: 'b', argumentsDelta: '{}' },
  { type: 'tool-call-end', id: 'b' },
  { type: 'usage', usage: { inputTokens: 30, outputTokens: 12, cacheReadTokens: 10, reasoningTokens: 5 } },
  { type: 'response-end', finishReason: { unified: 'tool-calls' } },
];

function withClient<T>(body: string, contentType: string, run: (client: OpenAI) => Promise<T>, status = 200): Promise<T> {
  return withCannedReply({ status, contentType, body }, (server) => run(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x', maxRetries: 0 })));
}

describe('openai SDK reads what the Responses encoders write', () => {
  test('responses.stream().finalResponse() accumulates reasoning, text, tool calls and usage', async () => {
    const response = await withClient(encodeStream(fullStream), 'text/event-stream', (client) =>
      client.responses.stream({ model: 'gpt-test', input: 'go' }).finalResponse(),
    );
    assert.equal(response.id, 'resp_abc');
    assert.equal(response.status, 'completed');
    assert.equal(response.output_text, 'Calling tools.');
    assert.deepEqual(
      response.output.map((item) => item.type),
      ['reasoning', 'message', 'function_call', 'function_call'],
    );
    const reasoning = response.output[0];
    assert.ok(reasoning?.type === 'reasoning');
    assert.equal(reasoning.summary[0]?.text, 'Think first.');
    assert.equal(reasoning.encrypted_content, 'enc123');
    const calls = response.output.flatMap((item) => (item.type === 'function_call' ? [[item.call_id, item.name, item.arguments]] : []));
    assert.deepEqual(calls, [
      ['call_1', 'shell', '{"cmd":"ls"}'],
      ['call_2', 'read', '{}'],
    ]);
    assert.equal(response.usage?.input_tokens, 30);
    assert.equal(response.usage?.input_tokens_details.cached_tokens, 10);
    assert.equal(response.usage?.output_tokens_details.reasoning_tokens, 5);
    assert.equal(response.usage?.total_tokens, 42);
  });

  test('a length cut-off ends as an incomplete response with max_output_tokens', async () => {
    const events: StreamEvent[] = [
      start,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Once upon' },
      { type: 'text-end', id: 't' },
      { type: 'response-end', finishReason: { unified: 'length' }, usage: { inputTokens: 3, outputTokens: 2 } },
    ];
    const response = await withClient(encodeStream(events), 'text/event-stream', (client) =>
      client.responses.stream({ model: 'gpt-test', input: 'story' }).finalResponse(),
    );
    assert.equal(response.status, 'incomplete');
    assert.equal(response.incomplete_details?.reason, 'max_output_tokens');
    assert.equal(response.output_text, 'Once upon');
  });

  test('iterating the raw stream yields every event in order, with increasing sequence numbers', async () => {
    const types = await withClient(encodeStream(fullStream.slice(0, 1).concat(fullStream.slice(5))), 'text/event-stream', async (client) => {
      const seen: Array<[string, number]> = [];
      const stream = await client.responses.create({ model: 'gpt-test', input: 'go', stream: true });
      for await (const event of stream) seen.push([event.type, event.sequence_number]);
      return seen;
    });
    assert.deepEqual(
      types.map(([, n]) => n),
      types.map((_, index) => index),
    );
    assert.deepEqual(
      types.slice(0, 4).map(([type]) => type),
      ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added'],
    );
    assert.equal(types.at(-1)?.[0], 'response.completed');
  });

  test('a failure mid-stream ends as a failed response carrying the code Codex acts on', async () => {
    const events: StreamEvent[] = [
      start,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'par' },
      { type: 'error', error: new GatewayError('upstream_rate_limited', 'The upstream is rate limited; try again in 2s.') },
    ];
    const response = await withClient(encodeStream(events), 'text/event-stream', (client) =>
      client.responses.stream({ model: 'gpt-test', input: 'go' }).finalResponse(),
    );
    assert.equal(response.id, 'resp_abc');
    assert.equal(response.status, 'failed');
    assert.equal(response.error?.code, 'rate_limit_exceeded');
    assert.match(response.error?.message ?? '', /try again in 2s/);
  });

  test('non-stream create reads encodeResponse output, including output_text', async () => {
    const body = openaiResponsesCodec.encodeResponse(
      {
        id: 'chatcmpl-foreign',
        model: 'gpt-test',
        createdAt: 1_700_000_000_000,
        content: [
          { type: 'text', text: 'Hi ' },
          { type: 'text', text: 'there' },
          { type: 'tool-call', callId: 'call_7', name: 'f', arguments: '{"x":1}' },
        ],
        finishReason: { unified: 'tool-calls' },
        usage: { inputTokens: 4, outputTokens: 6 },
      },
      createFixedRuntime(),
    );
    const response = await withClient(JSON.stringify(body), 'application/json', (client) => client.responses.create({ model: 'gpt-test', input: 'hi' }));
    assert.equal(response.id, 'resp_0001');
    assert.equal(response.output_text, 'Hi there');
    assert.equal(response.output.length, 2);
    assert.equal(response.usage?.total_tokens, 10);
  });

  test('encodeError becomes a typed SDK error', async () => {
    const failure = openaiResponsesCodec.encodeError(new GatewayError('rate_limited', 'Slow down.', { retryAfterSeconds: 1 }), 'req_9');
    await withClient(
      JSON.stringify(failure.body),
      'application/json',
      async (client) => {
        await assert.rejects(client.responses.create({ model: 'gpt-test', input: 'hi' }), (error: unknown) => {
          assert.ok(error instanceof OpenAI.RateLimitError);
          assert.equal(error.type, 'rate_limit_error');
          assert.match(error.message, /Slow down\. \(request id: req_9\)/);
          return true;
        });
      },
      failure.status,
    );
  });
});
