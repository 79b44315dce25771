import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ChatRequest, Message } from '../../src/core/chat-request.ts';
import { getCodec } from '../../src/protocols/codec-registry.ts';
import type { ProtocolId } from '../../src/protocols/protocol-codec.ts';
import { createFixedRuntime } from '../helpers/fixed-runtime.ts';

const PROTOCOLS: ProtocolId[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini-generate-content'];
const TOOL_NAMES = ['get_weather', 'search_docs', 'run_query'] as const;

/** Text every protocol can carry: not empty, not only whitespace (Anthropic rejects both). */
const text = fc
  .oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }))
  .filter((value) => value.trim() !== '');
const argumentsObject = fc.dictionary(fc.stringMatching(/^[a-z][a-z_]{0,8}$/), fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean()), {
  maxKeys: 3,
});

/** One exchange: a user turn, then maybe an assistant turn with text and/or calls, then their results. */
const exchange = fc.record({
  user: text,
  assistantText: fc.option(text, { nil: undefined }),
  calls: fc.array(fc.record({ name: fc.constantFrom(...TOOL_NAMES), arguments: argumentsObject, result: text }), { maxLength: 2 }),
});

const canonicalRequest: fc.Arbitrary<ChatRequest> = fc
  .record({ system: fc.array(text, { maxLength: 2 }), exchanges: fc.array(exchange, { minLength: 1, maxLength: 3 }), finalUser: text })
  .map(({ system, exchanges, finalUser }) => {
    let callCount = 0;
    const messages: Message[] = [];
    for (const step of exchanges) {
      messages.push({ role: 'user', content: [{ type: 'text', text: step.user }] });
      const calls = step.calls.map((call) => ({ ...call, callId: `call_${(callCount += 1)}` }));
      if (step.assistantText === undefined && calls.length === 0) continue;
      messages.push({
        role: 'assistant',
        content: [
          ...(step.assistantText === undefined ? [] : [{ type: 'text' as const, text: step.assistantText }]),
          ...calls.map((call) => ({ type: 'tool-call' as const, callId: call.callId, name: call.name, arguments: JSON.stringify(call.arguments) })),
        ],
      });
      if (calls.length > 0) {
        messages.push({
          role: 'tool',
          content: calls.map((call) => ({
            type: 'tool-result' as const,
            callId: call.callId,
            name: call.name,
            content: [{ type: 'text' as const, text: call.result }],
          })),
        });
      }
    }
    // The conversation ends on the user, as every protocol requires of a request.
    if (messages.at(-1)?.role !== 'tool') messages.push({ role: 'user', content: [{ type: 'text', text: finalUser }] });
    return {
      model: 'round-trip-model',
      system: system.map((value) => ({ type: 'text' as const, text: value })),
      messages,
      tools: TOOL_NAMES.map((name) => ({ name, description: `The ${name} tool.`, parameters: { type: 'object', properties: { q: { type: 'string' } } } })),
      maxOutputTokens: 256,
      stream: false,
    };
  });

type Item =
  | { role: string; kind: 'text'; text: string }
  | { role: string; kind: 'call'; name: string; arguments: unknown }
  | { role: 'tool'; kind: 'result'; name: string | undefined; text: string };

/**
 * What a conversation means, independent of how a protocol frames it: the system text, then
 * the sequence of texts, calls (name + parsed arguments) and results (which call, what text).
 * Call ids may be rewritten by a protocol, so results are tied to calls by order and name;
 * consecutive same-role turns may be merged, so turn boundaries are not part of the meaning.
 */
function meaning(request: ChatRequest): { system: string; items: Item[] } {
  const items: Item[] = [];
  const callNames = new Map<string, string>();
  for (const message of request.messages) {
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
          items.push({ role: message.role, kind: 'text', text: part.text });
          break;
        case 'tool-call':
          callNames.set(part.callId, part.name);
          items.push({ role: message.role, kind: 'call', name: part.name, arguments: JSON.parse(part.arguments || '{}') });
          break;
        case 'tool-result':
          items.push({
            role: 'tool',
            kind: 'result',
            name: part.name ?? callNames.get(part.callId),
            text: part.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join(''),
          });
          break;
        default:
          break;
      }
    }
  }
  return {
    system: request.system
      .map((part) => part.text)
      .join('\n')
      .split(/\n+/)
      .filter((line) => line !== '')
      .join('\n'),
    items,
  };
}

/** Results must point at calls that exist, in call order (ids may change, the link may not). */
function assertResultsLinked(request: ChatRequest): void {
  const callIds = request.messages.flatMap((message) => message.content.flatMap((part) => (part.type === 'tool-call' ? [part.callId] : [])));
  const resultIds = request.messages.flatMap((message) => message.content.flatMap((part) => (part.type === 'tool-result' ? [part.callId] : [])));
  assert.deepEqual(resultIds, callIds, 'every result answers its call, in order');
}

describe('cross-protocol round trip: client decode → upstream encode → upstream decode keeps the meaning', () => {
  for (const client of PROTOCOLS) {
    for (const upstream of PROTOCOLS) {
      if (client === upstream) continue;
      test(`${client} → ${upstream}`, () => {
        fc.assert(
          fc.property(canonicalRequest, (original) => {
            const runtime = createFixedRuntime();
            const clientCodec = getCodec(client);
            const upstreamCodec = getCodec(upstream);
            // What a client of this protocol would send for the conversation.
            const clientWire = clientCodec.encodeRequest(original, runtime).value;
            const decoded = clientCodec.decodeRequest({ body: clientWire.body, pathModel: clientWire.model, pathStream: false }, runtime).value;
            const upstreamWire = upstreamCodec.encodeRequest({ ...decoded, model: 'upstream-model' }, runtime).value;
            const received = upstreamCodec.decodeRequest(
              { body: JSON.parse(JSON.stringify(upstreamWire.body)), pathModel: upstreamWire.model, pathStream: false },
              runtime,
            ).value;

            assert.deepEqual(meaning(received), meaning(original));
            assertResultsLinked(received);
            assert.deepEqual(
              received.tools.map((tool) => tool.name),
              original.tools.map((tool) => tool.name),
            );
          }),
          { numRuns: 150, seed: 7 },
        );
      });
    }
  }
});
