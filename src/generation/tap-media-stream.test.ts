import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { DEFAULT_REPLY_LIMITS } from '../relay/reply-limits.ts';
import { tapMediaStream } from './tap-media-stream.ts';

const frames = [
  'event: image_generation.partial_image\ndata: {"type":"image_generation.partial_image"}\n\n',
  'event: image_generation.completed\ndata: {"type":"image_generation.completed"}\n\n',
];

test('a streamed image reply read to its end is settled once, after every event was seen', async () => {
  const seen: string[] = [];
  let settled = 0;
  const tapped = tapMediaStream(
    Readable.from(frames.map((frame) => Buffer.from(frame))),
    DEFAULT_REPLY_LIMITS,
    (message) => seen.push(message.event ?? ''),
    async () => {
      settled += 1;
    },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of tapped) chunks.push(Buffer.from(chunk));
  assert.equal(Buffer.concat(chunks).toString(), frames.join(''));
  assert.deepEqual(seen, ['image_generation.partial_image', 'image_generation.completed']);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, 1);
});

test('a client gone before the first byte settles the hold at once and ends the upstream body', async () => {
  let settled = 0;
  // An upstream that has answered but not yet sent its first event.
  const upstream = new Readable({ read() {} });
  const tapped = tapMediaStream(
    upstream,
    DEFAULT_REPLY_LIMITS,
    () => undefined,
    async () => {
      settled += 1;
    },
  );
  tapped.destroy();
  await once(tapped, 'close');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, 1);
  assert.equal(upstream.destroyed, true);
  // Destroying again, or the upstream ending late, settles nothing more.
  tapped.destroy();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, 1);
});

test('a client gone mid-stream settles once, for what was delivered', async () => {
  let settled = 0;
  const upstream = new Readable({ read() {} });
  upstream.push(Buffer.from(frames[0]!));
  const tapped = tapMediaStream(
    upstream,
    DEFAULT_REPLY_LIMITS,
    () => undefined,
    async () => {
      settled += 1;
    },
  );
  const [first] = await once(tapped, 'data');
  assert.match(String(first), /partial_image/);
  tapped.destroy();
  await once(tapped, 'close');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, 1);
  assert.equal(upstream.destroyed, true);
});
