import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SseMessage } from './sse-message.ts';
import { parseSseStream } from './parse-sse-stream.ts';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : Buffer.from(value).toString('utf8'));
const LIMITS = { maxEventBytes: 64, maxReplyBytes: 256 };

describe('parseSseStream', () => {
  test('hears each whole event once and returns the bytes of the events a chunk completes', () => {
    const heard: SseMessage[] = [];
    const sse = parseSseStream(LIMITS, (message) => heard.push(message));
    assert.equal(text(sse.push(bytes('event: a\ndata: {"x":'))), '');
    assert.deepEqual(heard, []);
    assert.equal(text(sse.push(bytes('1}\n\ndata: two\r\n\r\ndata: thr'))), 'event: a\ndata: {"x":1}\n\ndata: two\r\n\r\n');
    assert.deepEqual(heard, [{ event: 'a', data: '{"x":1}' }, { data: 'two' }]);
    assert.equal(text(sse.end()), 'data: thr\n\n', 'an event the upstream did not close is closed and parsed at the end');
    assert.deepEqual(heard.at(-1), { data: 'thr' });
    assert.equal(sse.end(), undefined);
  });

  test('an event past maxEventBytes, or a stream past maxReplyBytes, stops it with a failure', () => {
    const long = parseSseStream(LIMITS, () => assert.fail('nothing is heard'));
    assert.equal(long.push(bytes(`data: ${'x'.repeat(80)}`)), undefined);
    assert.equal(long.failure?.code, 'upstream_invalid_response');
    assert.match(long.failure?.message ?? '', /MAX_UPSTREAM_EVENT_BYTES/);

    const whole = parseSseStream(LIMITS, () => undefined);
    for (let index = 0; index < 14; index += 1) whole.push(bytes('data: 0123456789\n\n'));
    assert.equal(whole.push(bytes('data: 0123456789\n\n')), undefined);
    assert.match(whole.failure?.message ?? '', /MAX_UPSTREAM_REPLY_BYTES/);
  });
});
