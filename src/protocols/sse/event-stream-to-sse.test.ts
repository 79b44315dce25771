import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { eventStreamToSse } from './event-stream-to-sse.ts';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

function frame(messageType: 'event' | 'exception', type: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      [messageType === 'event' ? ':event-type' : ':exception-type']: { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: messageType },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

const chunk = (event: unknown) => frame('event', 'chunk', { bytes: Buffer.from(JSON.stringify(event)).toString('base64') });

async function read(frames: Uint8Array[]): Promise<string> {
  async function* body() {
    // Split across chunk boundaries, as a socket would.
    const joined = Buffer.concat(frames.map((part) => Buffer.from(part)));
    for (let at = 0; at < joined.length; at += 7) yield new Uint8Array(joined.subarray(at, at + 7));
  }
  let text = '';
  for await (const part of eventStreamToSse(body())) text += Buffer.from(part).toString('utf8');
  return text;
}

describe('eventStreamToSse', () => {
  test('Converse events keep their event type and JSON', async () => {
    assert.equal(await read([frame('event', 'messageStart', { role: 'assistant' })]), 'event: messageStart\ndata: {"role":"assistant"}\n\n');
  });

  test("InvokeModel chunks are unwrapped to the model's own events (base64 bytes), named after their type", async () => {
    const text = await read([
      chunk({ type: 'message_start', message: { id: 'msg_1' } }),
      chunk({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'héllo' } }),
    ]);
    assert.equal(
      text,
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1"}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo"}}\n\n',
    );
  });

  test("an exception inside an InvokeModel stream becomes Anthropic's error event; in a Converse stream it stays an exception", async () => {
    const invoke = await read([chunk({ type: 'message_start', message: {} }), frame('exception', 'throttlingException', { message: 'Too many requests' })]);
    assert.match(invoke, /event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"Too many requests"}}\n\n$/);
    const converse = await read([frame('event', 'messageStart', {}), frame('exception', 'throttlingException', { message: 'Too many requests' })]);
    assert.match(converse, /event: exception\ndata: {"message":"Too many requests","exceptionType":"throttlingException"}\n\n$/);
  });

  test('a chunk without bytes is a malformed stream', async () => {
    await assert.rejects(read([frame('event', 'chunk', { nope: 1 })]), /malformed/);
  });
});
