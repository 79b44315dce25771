import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type {
  AssistantContentPart,
  ChatRequest,
  ImagePart,
  Message,
  TextPart,
  ToolCallPart,
  ToolDefinition,
  ToolResultPart,
  UserContentPart,
} from '../../core/chat-request.ts';
import type { ProviderMetadata } from '../../core/provider-metadata.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import type { AnthropicMessageParam } from './anthropic-wire-types.ts';
import { decodeAnthropicRequest } from './decode-anthropic-request.ts';
import { encodeAnthropicRequest } from './encode-anthropic-request.ts';

/*
 * Property: a canonical request already in the shape Anthropic can express survives
 * encodeRequest → JSON → decodeRequest unchanged. The documented normalisations are kept out
 * of the generator (and covered by the example tests): same-role merging, "..." fillers, blank
 * text, unsigned reasoning, image `detail`, parallelToolCalls:true, effort → budget, sampling
 * parameters under thinking, and the unsupported fields (seed, penalties, n).
 */

const text = fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }).filter((s) => s.trim() !== '');
const identifier = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,15}$/);
const cacheControl: fc.Arbitrary<ProviderMetadata | undefined> = fc.option(
  fc.constant<ProviderMetadata>({ anthropic: { cacheControl: { type: 'ephemeral' } } }),
  { nil: undefined },
);
const withMetadata = <T extends object>(part: T, metadata: ProviderMetadata | undefined): T =>
  metadata === undefined ? part : { ...part, providerMetadata: metadata };

const textPart = fc.tuple(text, cacheControl).map(([t, metadata]) => withMetadata({ type: 'text' as const, text: t }, metadata));
const base64 = fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => Buffer.from(bytes).toString('base64'));
const imagePart: fc.Arbitrary<UserContentPart & { type: 'image' }> = fc.oneof(
  fc.record({
    type: fc.constant('image' as const),
    source: fc.record({
      kind: fc.constant('base64' as const),
      mediaType: fc.constantFrom('image/jpeg', 'image/png', 'image/gif', 'image/webp'),
      data: base64,
    }),
  }),
  fc.record({
    type: fc.constant('image' as const),
    source: fc.record({ kind: fc.constant('url' as const), url: identifier.map((name) => `https://example.com/${name}.png`) }),
  }),
);
const filePart: fc.Arbitrary<UserContentPart> = fc.oneof(
  fc.record(
    {
      type: fc.constant('file' as const),
      source: fc.record({ kind: fc.constant('base64' as const), mediaType: fc.constant('application/pdf'), data: base64 }),
      filename: identifier,
    },
    { requiredKeys: ['type', 'source'] },
  ),
  fc.record({
    type: fc.constant('file' as const),
    source: fc.record({
      kind: fc.constant('base64' as const),
      mediaType: fc.constant('text/plain'),
      data: fc.string({ unit: 'grapheme' }).map((s) => Buffer.from(s, 'utf8').toString('base64')),
    }),
  }),
);
const userPart: fc.Arbitrary<UserContentPart> = fc.oneof(textPart, imagePart, filePart);

const toolArguments = fc.dictionary(identifier, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).map((value) => JSON.stringify(value));
const assistantPart: fc.Arbitrary<AssistantContentPart> = fc.oneof(
  textPart,
  fc.record({ type: fc.constant('reasoning' as const), text: fc.string({ unit: 'grapheme' }), signature: fc.base64String({ minLength: 4 }) }),
  fc.record({ type: fc.constant('reasoning' as const), text: fc.constant(''), redactedData: fc.base64String({ minLength: 4 }) }),
  fc
    .tuple(identifier, toolArguments, cacheControl)
    .map(([name, args, metadata]) => withMetadata<ToolCallPart>({ type: 'tool-call', callId: '', name, arguments: args }, metadata)),
);

const resultContent: fc.Arbitrary<Array<TextPart | ImagePart>> = fc.array(fc.oneof(textPart, imagePart), { maxLength: 2 });
interface Exchange {
  user: UserContentPart[];
  assistant: AssistantContentPart[];
  results: Array<[Array<TextPart | ImagePart>, boolean | undefined]>;
}

const exchange: fc.Arbitrary<Exchange> = fc.record({
  user: fc.array(userPart, { maxLength: 3 }),
  assistant: fc.array(assistantPart, { minLength: 1, maxLength: 4 }),
  results: fc.array(fc.tuple(resultContent, fc.option(fc.boolean(), { nil: undefined })), { minLength: 4, maxLength: 4 }),
});

/** Turns exchanges into a conversation Anthropic can express: user, assistant, tool results, … */
function conversation(exchanges: Exchange[]): Message[] {
  const messages: Message[] = [];
  let pending: ToolCallPart[] = [];
  let results: Exchange['results'] = [];
  let nextId = 1;
  const flushResults = () => {
    if (pending.length === 0) return;
    messages.push({
      role: 'tool',
      content: pending.map((call, index) => {
        const [content, isError] = results[index] ?? [[], undefined];
        const part: ToolResultPart = { type: 'tool-result', callId: call.callId, name: call.name, content };
        if (isError !== undefined) part.isError = isError;
        return part;
      }),
    });
  };
  for (const { user, assistant, results: nextResults } of exchanges) {
    flushResults();
    if (user.length > 0 || pending.length === 0) {
      messages.push({ role: 'user', content: user.length > 0 ? user : [{ type: 'text', text: 'hello' }] });
    }
    const content = assistant.map((part) => (part.type === 'tool-call' ? { ...part, callId: `toolu_${nextId++}` } : part));
    messages.push({ role: 'assistant', content });
    pending = content.filter((part): part is ToolCallPart => part.type === 'tool-call').slice(0, 4);
    // Only the first four calls of a turn get results; the rest stay unanswered (allowed canonically).
    results = nextResults;
  }
  flushResults();
  return messages;
}

const toolDefinition: fc.Arbitrary<ToolDefinition> = fc.record(
  {
    name: identifier,
    description: text,
    parameters: fc.constant({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    strict: fc.boolean(),
    providerMetadata: fc.constant<ProviderMetadata>({ anthropic: { cacheControl: { type: 'ephemeral' } } }),
  },
  { requiredKeys: ['name', 'parameters'] },
);

const unit = fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x + 0);

const canonicalRequest: fc.Arbitrary<ChatRequest> = fc
  .record({
    system: fc.array(textPart, { maxLength: 3 }),
    exchanges: fc.array(exchange, { minLength: 1, maxLength: 4 }),
    tools: fc.uniqueArray(toolDefinition, { maxLength: 3, selector: (tool) => tool.name }),
    choice: fc.constantFrom('none', 'auto', 'required', 'tool', 'absent'),
    parallelOff: fc.boolean(),
    maxOutputTokens: fc.integer({ min: 1, max: 200_000 }),
    budget: fc.option(fc.integer({ min: 1024, max: 64_000 }), { nil: undefined }),
    temperature: fc.option(unit, { nil: undefined }),
    topP: fc.option(unit, { nil: undefined }),
    topK: fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }),
    stopSequences: fc.option(fc.array(text, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    user: fc.option(identifier, { nil: undefined }),
    schema: fc.option(fc.constant({ type: 'object', properties: { answer: { type: 'string' } } }), { nil: undefined }),
    stream: fc.boolean(),
  })
  .map((g) => {
    const request: ChatRequest = {
      model: 'claude-sonnet-4-6',
      system: g.system,
      messages: conversation(g.exchanges),
      tools: g.tools,
      stream: g.stream,
      maxOutputTokens: g.maxOutputTokens,
    };
    const [firstTool] = g.tools;
    if (firstTool && g.choice !== 'absent') {
      request.toolChoice = g.choice === 'tool' ? { type: 'tool', name: firstTool.name } : { type: g.choice };
      if (g.parallelOff && g.choice !== 'none') request.parallelToolCalls = false;
    }
    if (g.budget !== undefined) {
      request.reasoning = { enabled: true, budgetTokens: g.budget };
      request.maxOutputTokens = Math.max(g.maxOutputTokens, g.budget + 1);
    } else {
      if (g.temperature !== undefined) request.temperature = g.temperature;
      if (g.topP !== undefined) request.topP = g.topP;
      if (g.topK !== undefined) request.topK = g.topK;
    }
    if (g.stopSequences !== undefined) request.stopSequences = g.stopSequences;
    if (g.user !== undefined) request.user = g.user;
    if (g.schema !== undefined) request.responseFormat = { type: 'json', schema: g.schema };
    return request;
  });

/** Anything the canonical type allows, including what Anthropic cannot take as is. */
const messyMessage: fc.Arbitrary<Message> = fc.oneof(
  fc.record({
    role: fc.constant('user' as const),
    content: fc.array(fc.oneof(userPart, fc.constantFrom({ type: 'text' as const, text: '' }, { type: 'text' as const, text: ' \n' })), { maxLength: 3 }),
  }),
  fc.record({
    role: fc.constant('assistant' as const),
    content: fc.array(
      fc.oneof(
        assistantPart,
        fc.record({ type: fc.constant('reasoning' as const), text: fc.string() }),
        fc.record({ type: fc.constant('tool-call' as const), callId: fc.string(), name: identifier, arguments: fc.string() }),
      ),
      { maxLength: 3 },
    ),
  }),
  fc.record({
    role: fc.constant('tool' as const),
    content: fc.array(fc.record({ type: fc.constant('tool-result' as const), callId: fc.string(), content: resultContent }), { maxLength: 3 }),
  }),
);

describe('encodeAnthropicRequest properties', () => {
  test('expressible canonical requests survive encode → JSON → decode unchanged', () => {
    fc.assert(
      fc.property(canonicalRequest, (request) => {
        const encoded = encodeAnthropicRequest(request, createFixedRuntime());
        assert.deepEqual(encoded.warnings, []);
        const wire: unknown = JSON.parse(JSON.stringify(encoded.value.body));
        const decoded = decodeAnthropicRequest({ body: wire });
        // structuredClone: fast-check records have null prototypes, which deepEqual would count.
        assert.deepEqual(decoded.value, structuredClone(request));
        assert.deepEqual(decoded.warnings, []);
      }),
      { numRuns: 300 },
    );
  });

  test('any canonical request encodes into a body Anthropic accepts', () => {
    const arbitrary = fc.record({
      messages: fc.array(messyMessage, { maxLength: 6 }),
      temperature: fc.option(fc.double({ min: 0, max: 2, noNaN: true }), { nil: undefined }),
      budget: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
      maxOutputTokens: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(arbitrary, (g) => {
        const request: ChatRequest = { model: 'm', system: [], messages: g.messages, tools: [], stream: false };
        if (g.temperature !== undefined) request.temperature = g.temperature;
        if (g.maxOutputTokens !== undefined) request.maxOutputTokens = g.maxOutputTokens;
        if (g.budget !== undefined) request.reasoning = { enabled: true, budgetTokens: g.budget };
        const body = encodeAnthropicRequest(request, createFixedRuntime()).value.body;
        const messages = body.messages as AnthropicMessageParam[];
        messages.forEach((message, index) => {
          assert.equal(message.role, index % 2 === 0 ? 'user' : 'assistant', 'roles alternate from user');
          assert.ok(message.content.length > 0, 'no empty turn');
          const firstOther = message.content.findIndex((block) => block.type !== 'tool_result');
          const lastResult = message.content.findLastIndex((block) => block.type === 'tool_result');
          assert.ok(firstOther === -1 || lastResult < firstOther, 'tool results lead their turn');
          for (const block of message.content) {
            if (block.type === 'text') assert.notEqual(block.text.trim(), '', 'no blank text');
            if (block.type === 'tool_use') assert.match(block.id, /^[a-zA-Z0-9_-]+$/);
            if (block.type === 'tool_result') assert.match(block.tool_use_id, /^[a-zA-Z0-9_-]+$/);
            if (block.type === 'thinking') assert.notEqual(block.signature, '');
            if (block.type === 'tool_use' || block.type === 'tool_result' || block.type === 'redacted_thinking' || block.type === 'thinking') {
              assert.equal(message.role, block.type === 'tool_result' ? 'user' : 'assistant');
            }
          }
        });
        if (body.temperature !== undefined) assert.ok((body.temperature as number) <= 1);
        const thinking = body.thinking as { budget_tokens: number } | undefined;
        if (thinking) {
          assert.ok(thinking.budget_tokens >= 1024);
          assert.ok(thinking.budget_tokens < (body.max_tokens as number));
        }
        // And our own reader takes it back without complaint.
        decodeAnthropicRequest({ body: JSON.parse(JSON.stringify(body)) as unknown });
      }),
      { numRuns: 300 },
    );
  });
});
