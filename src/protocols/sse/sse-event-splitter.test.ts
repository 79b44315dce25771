import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SseEventSplitter } from './sse-event-splitter.ts';

const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8'));
const limits = { maxEventBytes: 1024 * 1024, maxReplyBytes: 8 * 1024 * 1024 };

test('cuts at the last blank line, also when the blank line straddles two chunks (\\n|\\n and \\r\\n|\\r\\n)', () => {
  const splitter = new SseEventSplitter(limits);
  assert.equal(text(splitter.push(Buffer.from('data: a\n'))), '');
  assert.equal(text(splitter.push(Buffer.from('\ndata: b\r\n\r'))), 'data: a\n\n');
  assert.equal(text(splitter.push(Buffer.from('\ndata: c'))), 'data: b\r\n\r\n');
  assert.equal(text(splitter.rest()), 'data: c');
  assert.equal(splitter.rest(), undefined);
});

test('a 64 MB line without a newline is refused at the event bound, in linear time', () => {
  const splitter = new SseEventSplitter({ maxEventBytes: 16 * 1024 * 1024, maxReplyBytes: 1024 * 1024 * 1024 });
  const chunk = new Uint8Array(64 * 1024).fill(120);
  const started = performance.now();
  let pushed = 0;
  while (pushed < 64 * 1024 * 1024 && splitter.push(chunk) !== undefined) pushed += chunk.length;
  const elapsed = performance.now() - started;
  assert.equal(splitter.failure?.code, 'upstream_invalid_response');
  assert.match(splitter.failure?.message ?? '', /MAX_UPSTREAM_EVENT_BYTES/);
  assert.ok(pushed <= 16 * 1024 * 1024, `stopped after ${pushed} bytes`);
  // The old search re-read the pending tail on every chunk: 256 chunks of up to 16 MB each.
  assert.ok(elapsed < 500, `took ${elapsed} ms`);
});

test('a stream of whole events past the reply bound fails with the reply error', () => {
  const splitter = new SseEventSplitter({ maxEventBytes: 1024, maxReplyBytes: 10_000 });
  const event = Buffer.from(`data: ${'x'.repeat(90)}\n\n`);
  let outcome: Uint8Array | undefined = new Uint8Array(0);
  for (let index = 0; index < 200 && outcome !== undefined; index += 1) outcome = splitter.push(event);
  assert.equal(outcome, undefined);
  assert.match(splitter.failure?.message ?? '', /MAX_UPSTREAM_REPLY_BYTES/);
});
