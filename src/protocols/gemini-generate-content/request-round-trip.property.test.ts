import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { AssistantContentPart, ChatRequest, Message, ToolDefinition, ToolResultPart, UserContentPart } from '../../core/chat-request.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { decodeGeminiRequest } from './decode-gemini-request.ts';
import { SKIP_THOUGHT_SIGNATURE } from './encode-gemini-contents.ts';
import { encodeGeminiRequest } from './encode-gemini-request.ts';

/**
 * Any canonical request Gemini can express must survive encode → JSON → decode with the same
 * meaning. "Meaning" forgives only what the wire cannot tell apart: JSON text re-serialised,
 * `isError: false` vs absent, a `text` response format vs none, and the placeholder thought
 * signature the encoder adds for Gemini 3, and consecutive same-role turns (one Gemini turn).
 */
const text = fc.string({ minLength: 1, maxLength: 20 });
const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
const signature = fc.option(fc.base64String({ minLength: 4, maxLength: 24 }), { nil: undefined });
const gemini = (sig: string | undefined) => (sig === undefined ? {} : { providerMetadata: { gemini: { thoughtSignature: sig } } });
const argumentsText = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }).map((args) => JSON.stringify(args));

const userPart: fc.Arbitrary<UserContentPart> = fc.oneof(
  text.map((value) => ({ type: 'text' as const, text: value })),
  fc
    .base64String({ minLength: 4, maxLength: 16 })
    .map((data) => ({ type: 'image' as const, source: { kind: 'base64' as const, mediaType: 'image/png', data } })),
  fc.webUrl().map((url) => ({ type: 'file' as const, source: { kind: 'url' as const, url, mediaType: 'application/pdf' } })),
);

interface Exchange {
  user: UserContentPart[];
  lead: Array<{ kind: 'text' | 'reasoning'; text: string; signature: string | undefined }>;
  calls: Array<{ name: string; arguments: string; signature: string | undefined }>;
  results: Array<{ text: string; isError: boolean; named: boolean }>;
}

const exchange: fc.Arbitrary<Exchange> = fc.record({
  user: fc.array(userPart, { minLength: 1, maxLength: 3 }),
  lead: fc.array(fc.record({ kind: fc.constantFrom('text' as const, 'reasoning' as const), text, signature }), { maxLength: 2 }),
  calls: fc.array(fc.record({ name, arguments: argumentsText, signature }), { maxLength: 3 }),
  results: fc.array(fc.record({ text: fc.oneof(text, argumentsText), isError: fc.boolean(), named: fc.boolean() }), { maxLength: 3 }),
});

function buildMessages(exchanges: Exchange[]): Message[] {
  const messages: Message[] = [];
  let next = 0;
  for (const turn of exchanges) {
    messages.push({ role: 'user', content: turn.user });
    const content: AssistantContentPart[] = turn.lead.map(
      (part): AssistantContentPart =>
        part.kind === 'text'
          ? { type: 'text', text: part.text, ...gemini(part.signature) }
          : { type: 'reasoning', text: part.text, ...gemini(part.signature ?? 'sig') },
    );
    const calls = turn.calls.map((call) => ({
      type: 'tool-call' as const,
      callId: `id_${next++}`,
      name: call.name,
      arguments: call.arguments,
      ...gemini(call.signature),
    }));
    content.push(...calls);
    if (content.length === 0) continue;
    messages.push({ role: 'assistant', content });
    const results = calls.slice(0, turn.results.length).map((call, i): ToolResultPart => {
      const result = turn.results[i] ?? { text: '', isError: false, named: false };
      return {
        type: 'tool-result',
        callId: call.callId,
        ...(result.named ? { name: call.name } : {}),
        content: [{ type: 'text', text: result.text }],
        ...(result.isError ? { isError: true } : {}),
      };
    });
    if (results.length > 0) messages.push({ role: 'tool', content: results.reverse() });
  }
  return messages;
}

const tool: fc.Arbitrary<ToolDefinition> = fc
  .record(
    {
      name,
      description: text,
      parameters: fc.constant({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }),
    },
    { requiredKeys: ['name', 'parameters'] },
  )
  .map((definition) => ({ ...definition }));

const request: fc.Arbitrary<ChatRequest> = fc
  .record(
    {
      model: fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,20}$/),
      system: fc.array(
        text.map((value) => ({ type: 'text' as const, text: value })),
        { maxLength: 2 },
      ),
      exchanges: fc.array(exchange, { maxLength: 3 }),
      tools: fc.uniqueArray(tool, { selector: (definition) => definition.name, maxLength: 3 }),
      toolChoice: fc.oneof(fc.constant({ type: 'auto' as const }), fc.constant({ type: 'none' as const }), fc.constant({ type: 'required' as const })),
      temperature: fc.double({ min: 0, max: 2, noNaN: true }),
      topP: fc.double({ min: 0, max: 1, noNaN: true }),
      topK: fc.nat(100),
      maxOutputTokens: fc.integer({ min: 1, max: 100_000 }),
      stopSequences: fc.array(text, { maxLength: 5 }),
      seed: fc.integer(),
      presencePenalty: fc.double({ min: -2, max: 2, noNaN: true }),
      frequencyPenalty: fc.double({ min: -2, max: 2, noNaN: true }),
      candidateCount: fc.integer({ min: 1, max: 4 }),
      responseFormat: fc.oneof(
        fc.constant({ type: 'json' as const }),
        fc.constant({ type: 'json' as const, schema: { type: 'object', properties: { a: { type: 'number' } } } }),
      ),
      reasoning: fc.oneof(
        fc.constant({ enabled: false }),
        fc.constant({ enabled: true }),
        fc.integer({ min: 1, max: 32_768 }).map((budgetTokens) => ({ enabled: true, budgetTokens })),
      ),
      stream: fc.boolean(),
    },
    { requiredKeys: ['model', 'system', 'exchanges', 'tools', 'stream'] },
  )
  .map(({ exchanges, ...rest }) => ({ ...rest, messages: buildMessages(exchanges) }))
  .map((value): ChatRequest => {
    const result = { ...value } as ChatRequest;
    // -0 has no JSON spelling distinct from 0.
    for (const key of ['temperature', 'topP', 'presencePenalty', 'frequencyPenalty'] as const) {
      if (Object.is(result[key], -0)) result[key] = 0;
    }
    return result;
  });

/** The request as the Gemini wire can carry it. */
function meaning(input: ChatRequest): ChatRequest {
  const callNames = new Map<string, string>();
  const messages = input.messages.map((message): Message => {
    switch (message.role) {
      case 'user':
        return message;
      case 'assistant':
        return {
          role: 'assistant',
          content: message.content.map((part) => {
            if (part.type === 'tool-call') {
              callNames.set(part.callId, part.name);
              if (part.providerMetadata?.gemini?.thoughtSignature === SKIP_THOUGHT_SIGNATURE) {
                const { providerMetadata: _, ...rest } = part;
                return rest;
              }
            }
            return part;
          }),
        };
      case 'tool':
        return {
          role: 'tool',
          content: message.content.map((part) => ({
            type: 'tool-result',
            callId: part.callId,
            name: part.name ?? callNames.get(part.callId) ?? part.callId,
            content: part.content.map((inner) => (inner.type === 'text' ? { type: 'text', text: canonicalJsonText(inner.text) } : inner)),
            ...(part.isError === true ? { isError: true } : {}),
          })),
        };
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  });
  return { ...input, messages: mergeSameRole(messages) };
}

/** Consecutive turns of one role are one Gemini turn. */
function mergeSameRole(messages: Message[]): Message[] {
  const merged: Message[] = [];
  for (const message of messages) {
    const last = merged.at(-1);
    if (last?.role === message.role) merged[merged.length - 1] = { ...last, content: [...last.content, ...message.content] } as Message;
    else merged.push(message);
  }
  return merged;
}

function canonicalJsonText(value: string): string {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return JSON.stringify(parsed);
  } catch {
    // plain text
  }
  return value;
}

test('encodeRequest → JSON → decodeRequest keeps the meaning of any expressible request', () => {
  fc.assert(
    fc.property(request, (original) => {
      const encoded = encodeGeminiRequest(original, createFixedRuntime());
      // The skip-signature fallback for unsigned function calls is a warning by design.
      assert.deepEqual(
        encoded.warnings.filter((warning) => warning.feature !== 'thought_signature'),
        [],
      );
      const body: unknown = JSON.parse(JSON.stringify(encoded.value.body));
      const decoded = decodeGeminiRequest({ body, pathModel: `models/${encoded.value.model}`, pathStream: encoded.value.stream }, createFixedRuntime());
      assert.deepEqual(decoded.warnings, []);
      assert.deepEqual(meaning(decoded.value), meaning(original));
    }),
    { numRuns: 300 },
  );
});
