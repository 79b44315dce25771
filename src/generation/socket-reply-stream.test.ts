import assert from 'node:assert/strict';
import { finished } from 'node:stream/promises';
import { describe, test } from 'node:test';
import { SocketReplyStream, type MessageSink } from './socket-reply-stream.ts';

/** A sink that holds every message until `release()`: a client that does not read. */
function heldSink(): MessageSink & { sent: string[]; pending: Array<() => void>; release(): void } {
  const sink = {
    sent: [] as string[],
    pending: [] as Array<() => void>,
    send(text: string, done: () => void) {
      sink.sent.push(text);
      sink.pending.push(done);
    },
    release() {
      for (const done of sink.pending.splice(0)) done();
    },
  };
  return sink;
}

const event = (type: string, extra = '') => `event: ${type}\ndata: {"type":"${type}"${extra}}\n\n`;

describe('SocketReplyStream', () => {
  test('each SSE event becomes one message, split across chunks or not; comments and [DONE] are dropped', async () => {
    const sink = heldSink();
    const reply = new SocketReplyStream({ send: (text, done) => (sink.sent.push(text), done()) });
    reply.writeHead(200, {});
    const text = `: keep-alive\n\n${event('response.created')}${event('response.output_text.delta', ',"delta":"hé"')}data: [DONE]\n\n`;
    const bytes = Buffer.from(text);
    // Split inside the two-byte "é" and inside an event.
    const cut = bytes.indexOf(Buffer.from('é')) + 1;
    reply.write(bytes.subarray(0, cut));
    reply.write(bytes.subarray(cut));
    reply.end();
    await finished(reply);
    assert.deepEqual(sink.sent, ['{"type":"response.created"}', '{"type":"response.output_text.delta","delta":"hé"}']);
  });

  test('a client that does not read stops the writer: write() returns false once the buffer is full, and drain comes only after the socket took the messages', async () => {
    const sink = heldSink();
    const reply = new SocketReplyStream(sink, { highWaterMark: 1024 });
    reply.writeHead(200, {});
    let accepted = 0;
    while (accepted < 1000 && reply.write(event('response.output_text.delta', `,"delta":"${'x'.repeat(100)}"`))) accepted += 1;
    assert.ok(accepted < 10, `the writer was stopped after ${accepted} events`);
    let drained = false;
    reply.once('drain', () => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(drained, false, 'no drain while the socket holds the messages');
    while (!drained) {
      sink.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
  });

  test('an error reply becomes one error event with the status; a stream_id tags every event', async () => {
    const sink = heldSink();
    const reply = new SocketReplyStream({ send: (text, done) => (sink.sent.push(text), done()) }, { streamId: 'lane-1' });
    reply.writeHead(404, {});
    reply.end('{"error":{"message":"no such model","type":"invalid_request_error","param":"model","code":"model_not_found"}}');
    await finished(reply);
    assert.deepEqual(
      sink.sent.map((text) => JSON.parse(text)),
      [
        {
          stream_id: 'lane-1',
          type: 'error',
          status: 404,
          error: { message: 'no such model', type: 'invalid_request_error', param: 'model', code: 'model_not_found' },
        },
      ],
    );
  });
});
