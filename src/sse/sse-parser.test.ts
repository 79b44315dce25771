import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createParser } from 'eventsource-parser';
import { SseParser } from './sse-parser.ts';
import type { SseMessage } from './sse-message.ts';

/** What eventsource-parser (the parser the relay used before) dispatches for the same pieces, in the relay's shape. */
function reference(pieces: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = createParser({ onEvent: (event) => out.push(event.event === undefined ? { data: event.data } : { event: event.event, data: event.data }) });
  for (const piece of pieces) parser.feed(piece);
  return out;
}

function parsed(pieces: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = new SseParser();
  for (const piece of pieces) parser.feed(piece, out);
  return out;
}

/** Text cut into pieces at the given points. */
function cut(text: string, points: number[]): string[] {
  const at = [...new Set(points.map((point) => point % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of at) {
    pieces.push(text.slice(from, point));
    from = point;
  }
  pieces.push(text.slice(from));
  return pieces;
}

// SSE-ish tokens, so random text hits every field and line ending often.
const token = fc.constantFrom(
  'data:', 'data: ', 'data', 'event:', 'event: ', 'event', 'id:', 'id: 7', 'retry: 10', 'retry:x', ':', ': ping', 'foo:', 'foo',
  '\n', '\n', '\n\n', '\r', '\r\n', '\r\n\r\n', ' ', 'x', '{"a":1}', '[DONE]', 'ï»¿', '\uFEFF', 'é', ':', 'data:data:',
);

describe('SseParser reads as eventsource-parser', () => {
  test('known streams', () => {
    const cases = [
      'data: {"a":1}\n\ndata: [DONE]\n\n',
      'event: message_start\ndata: {"x":1}\n\nevent: ping\ndata: {}\n\n',
      'data: one\ndata: two\n\n',
      'data: a\r\n\r\nevent: e\r\ndata: b\r\n\r\n',
      'data: a\r\rdata: b\r\r',
      ': comment\nid: 3\nretry: 100\ndata: x\n\n',
      'event:\ndata: no type\n\n',
      'event: only\n\n',
      'ï»¿data: bom\n\n',
      'data\n\n',
      'data: tail without end',
    ];
    for (const text of cases) {
      assert.deepEqual(parsed([text]), reference([text]), JSON.stringify(text));
      for (let at = 0; at <= text.length; at += 1) {
        const pieces = [text.slice(0, at), text.slice(at)];
        assert.deepEqual(parsed(pieces), reference(pieces), JSON.stringify(pieces));
      }
    }
  });

  test('random text in random pieces', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), fc.array(fc.nat(400), { maxLength: 6 }), (tokens, points) => {
        const pieces = cut(tokens.join(''), points);
        assert.deepEqual(parsed(pieces), reference(pieces));
      }),
      { numRuns: 3000 },
    );
  });
});
