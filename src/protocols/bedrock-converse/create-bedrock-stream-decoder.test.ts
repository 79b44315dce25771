import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { createBedrockStreamDecoder } from './create-bedrock-stream-decoder.ts';

/** What event-stream-to-sse hands the decoder: one SSE message per event-stream frame. */
const frame = (event: string, data: Record<string, unknown>): SseMessage => ({ event, data: JSON.stringify({ ...data, p: 'abcdef' }) });

function decode(messages: SseMessage[]): StreamEvent[] {
  const decoder = createBedrockStreamDecoder(createFixedRuntime());
  return [...messages.flatMap((message) => decoder.push(message)), ...decoder.end()];
}

test('messageStop’s additionalModelResponseFields.stop_sequence names the sequence on response-end', () => {
  const events = decode([
    frame('messageStart', { role: 'assistant' }),
    frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: '1, 2, ' } }),
    frame('contentBlockStop', { contentBlockIndex: 0 }),
    frame('messageStop', { stopReason: 'stop_sequence', additionalModelResponseFields: { stop_sequence: 'END' } }),
    frame('metadata', { usage: { inputTokens: 15, outputTokens: 10, totalTokens: 25 }, metrics: { latencyMs: 90 } }),
  ]);
  const end = events.at(-1);
  assert.equal(end?.type, 'response-end');
  assert.deepEqual(end?.type === 'response-end' ? end.finishReason : undefined, { unified: 'stop', raw: 'stop_sequence', stopSequence: 'END' });
});

test('an exception frame mid-block leaves the block open, so clients see it cut rather than done', () => {
  const events = decode([
    frame('messageStart', { role: 'assistant' }),
    frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Autumn moonlight, ' } }),
    { event: 'exception', data: JSON.stringify({ exceptionType: 'modelStreamErrorException', message: 'The model returned an error: Overloaded' }) },
  ]);
  assert.deepEqual(
    events.map((event) => event.type),
    ['response-start', 'text-start', 'text-delta', 'error'],
  );
  const error = events.at(-1);
  assert.equal(error?.type === 'error' ? error.error.message : undefined, 'The model returned an error: Overloaded');
});
