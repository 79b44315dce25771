import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EventTextDecoder } from './event-text-decoder.ts';

const enc = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

// Bytes that end events, and bytes that make every kind of broken or split character.
const piece = fc.oneof(
  fc.constantFrom(enc('data: x'), enc('é'), enc('€'), enc('😀'), enc('\uFEFF'), enc('\n'), enc('\r')),
  fc.uint8Array({ minLength: 1, maxLength: 4 }),
  fc.constantFrom(
    new Uint8Array([0xef, 0xbb, 0xbf]),
    new Uint8Array([0xe2, 0x82]),
    new Uint8Array([0xf0, 0x9f]),
    new Uint8Array([0xed, 0xa0, 0x80]),
    new Uint8Array([0xc0, 0xaf]),
  ),
);

/** Events (each ending with a blank line, as the splitter cuts them) and a tail that may end anywhere. */
const stream = fc.record({
  events: fc.array(fc.array(piece, { minLength: 1, maxLength: 6 }), { maxLength: 5 }),
  tail: fc.array(piece, { maxLength: 4 }),
});

function join(parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

describe('EventTextDecoder decodes as one streaming TextDecoder', () => {
  test('random events and tails, with BOMs, split and invalid characters', () => {
    fc.assert(
      fc.property(stream, ({ events, tail }) => {
        const reference = new TextDecoder();
        const decoder = new EventTextDecoder();
        for (const event of events) {
          const bytes = join([...event, enc('\n\n')]);
          assert.deepEqual(decoder.decode(bytes), reference.decode(bytes, { stream: true }));
        }
        if (tail.length > 0) {
          const bytes = join(tail);
          assert.deepEqual(decoder.decodeTail(bytes), reference.decode(bytes, { stream: true }));
        }
      }),
      { numRuns: 5000 },
    );
  });

  test('a BOM is dropped at the start of the stream only', () => {
    const decoder = new EventTextDecoder();
    assert.equal(decoder.decode(enc('\uFEFFdata: a\n\n')), 'data: a\n\n');
    assert.equal(decoder.decode(enc('\uFEFFdata: b\n\n')), '\uFEFFdata: b\n\n');
  });

  test('a tail ending inside a character holds it back', () => {
    assert.equal(new EventTextDecoder().decodeTail(new Uint8Array([0x61, 0xe2, 0x82])), 'a');
  });
});
