import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest } from '../../core/chat-request.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { decodeGeminiRequest } from './decode-gemini-request.ts';
import { encodeGeminiRequest } from './encode-gemini-request.ts';

const base: ChatRequest = { model: 'gemini-2.5-pro', system: [], messages: [], tools: [], stream: false };
const encode = (request: Partial<ChatRequest>) => encodeGeminiRequest({ ...base, ...request }, createFixedRuntime());

describe('encodeGeminiRequest', () => {
  test('text and system: model and stream travel beside the body', () => {
    const { value, warnings } = encode({
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      stream: true,
    });
    assert.deepEqual(value, {
      model: 'gemini-2.5-pro',
      stream: true,
      body: {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
      },
    });
    assert.deepEqual(warnings, []);
  });

  test('consecutive same-role messages merge; empty text and empty turns are dropped', () => {
    const { value } = encode({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: '' },
            { type: 'text', text: 'b' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: '' }] },
        { role: 'user', content: [{ type: 'text', text: 'c' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'd' }] },
      ],
    });
    assert.deepEqual(value.body.contents, [
      { role: 'user', parts: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] },
      { role: 'model', parts: [{ text: 'd' }] },
    ]);
  });

  test('images: base64 and data: URLs go inline, other URLs as fileData', () => {
    const { value } = encode({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } },
            { type: 'image', source: { kind: 'url', url: 'data:image/jpeg;base64,BBBB' } },
            { type: 'file', source: { kind: 'url', url: 'https://x.test/a.pdf', mediaType: 'application/pdf' } },
          ],
        },
      ],
    });
    assert.deepEqual(value.body.contents, [
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
          { inlineData: { mimeType: 'image/jpeg', data: 'BBBB' } },
          { fileData: { mimeType: 'application/pdf', fileUri: 'https://x.test/a.pdf' } },
        ],
      },
    ]);
  });

  test('foreign parallel tool calls: first call gets the skip signature; results recover names by call id', () => {
    const { value } = encode({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool-call', callId: 'toolu_1', name: 'weather', arguments: '{"city":"Paris"}' },
            { type: 'tool-call', callId: 'toolu_2', name: 'time', arguments: '' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', callId: 'toolu_1', content: [{ type: 'text', text: 'sunny' }] },
            { type: 'tool-result', callId: 'toolu_2', content: [{ type: 'text', text: '{"hour":12}' }] },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'and tomorrow?' }] },
      ],
    });
    assert.deepEqual(value.body.contents, [
      { role: 'user', parts: [{ text: 'weather?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          { functionCall: { id: 'toolu_1', name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'skip_thought_signature_validator' },
          { functionCall: { id: 'toolu_2', name: 'time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'toolu_1', name: 'weather', response: { output: 'sunny' } } },
          { functionResponse: { id: 'toolu_2', name: 'time', response: { hour: 12 } } },
          { text: 'and tomorrow?' },
        ],
      },
    ]);
  });

  test('error results go as {error}; text that only looks like a wrapper stays text', () => {
    const { value } = encode({
      messages: [
        { role: 'assistant', content: [{ type: 'tool-call', callId: 'c1', name: 'f', arguments: '{}' }] },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', callId: 'c1', name: 'f', content: [{ type: 'text', text: 'boom' }], isError: true },
            { type: 'tool-result', callId: 'c1', name: 'f', content: [{ type: 'text', text: '{"output":"x"}' }] },
          ],
        },
      ],
    });
    assert.deepEqual((value.body.contents as unknown[])[1], {
      role: 'user',
      parts: [
        { functionResponse: { id: 'c1', name: 'f', response: { error: 'boom' } } },
        { functionResponse: { id: 'c1', name: 'f', response: { output: '{"output":"x"}' } } },
      ],
    });
  });

  test('Gemini thought signatures round-trip byte for byte; unsigned reasoning is dropped with a warning', () => {
    const signature = 'CiQBcsjafB8+/=\u00e9-opaque==';
    const request = decodeGeminiRequest(
      {
        pathModel: 'gemini-3-pro-preview',
        body: {
          contents: [
            { role: 'user', parts: [{ text: 'q' }] },
            {
              role: 'model',
              parts: [
                { text: 'hmm', thought: true, thoughtSignature: signature },
                { functionCall: { id: 'x', name: 'f', args: { a: [1, { b: null }] } }, thoughtSignature: signature + '2' },
                { functionCall: { id: 'y', name: 'f', args: {} } },
              ],
            },
          ],
        },
      },
      createFixedRuntime(),
    ).value;
    const { value, warnings } = encodeGeminiRequest(request, createFixedRuntime());
    assert.deepEqual(value.body.contents, [
      { role: 'user', parts: [{ text: 'q' }] },
      {
        role: 'model',
        parts: [
          { text: 'hmm', thought: true, thoughtSignature: signature },
          { functionCall: { id: 'x', name: 'f', args: { a: [1, { b: null }] } }, thoughtSignature: signature + '2' },
          { functionCall: { id: 'y', name: 'f', args: {} } },
        ],
      },
    ]);
    assert.deepEqual(warnings, []);

    const foreign = encode({
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'claude thoughts', signature: 'anthropic-sig' },
            { type: 'text', text: 'ok' },
          ],
        },
      ],
    });
    assert.deepEqual(foreign.value.body.contents, [{ role: 'model', parts: [{ text: 'ok' }] }]);
    assert.deepEqual(foreign.warnings, [
      { type: 'unsupported', feature: 'reasoning_history', detail: 'reasoning without a Gemini thought signature was dropped' },
    ]);
  });

  test('tools go as parametersJsonSchema untouched; tool choice becomes toolConfig', () => {
    const parameters = { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false, $schema: 'x' };
    const { value } = encode({
      tools: [
        { name: 'search', description: 'Search the web', parameters },
        { name: 'noop', parameters: { type: 'object' } },
      ],
      toolChoice: { type: 'tool', name: 'search' },
    });
    assert.deepEqual(value.body.tools, [
      {
        functionDeclarations: [
          { name: 'search', description: 'Search the web', parametersJsonSchema: parameters },
          { name: 'noop', parametersJsonSchema: { type: 'object' } },
        ],
      },
    ]);
    assert.deepEqual(value.body.toolConfig, { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['search'] } });
    for (const [type, mode] of [
      ['auto', 'AUTO'],
      ['none', 'NONE'],
      ['required', 'ANY'],
    ] as const) {
      assert.deepEqual(encode({ toolChoice: { type } }).value.body.toolConfig, { functionCallingConfig: { mode } });
    }
  });

  test('generation config, JSON output, stop sequences clamped to five with a warning', () => {
    const { value, warnings } = encode({
      temperature: 0,
      topP: 1,
      topK: 3,
      maxOutputTokens: 10,
      stopSequences: ['1', '2', '3', '4', '5', '6'],
      seed: 0,
      candidateCount: 1,
      presencePenalty: 0,
      frequencyPenalty: 0.5,
      responseFormat: { type: 'json', schema: { type: 'object' } },
    });
    assert.deepEqual(value.body.generationConfig, {
      temperature: 0,
      topP: 1,
      topK: 3,
      maxOutputTokens: 10,
      stopSequences: ['1', '2', '3', '4', '5'],
      candidateCount: 1,
      seed: 0,
      presencePenalty: 0,
      frequencyPenalty: 0.5,
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object' },
    });
    assert.deepEqual(warnings, [{ type: 'clamped', feature: 'stopSequences', from: 6, to: 5 }]);
    assert.equal(encode({}).value.body.generationConfig, undefined);
  });

  test('reasoning maps to thinkingConfig', () => {
    const thinking = (reasoning: ChatRequest['reasoning']) => (encode({ reasoning }).value.body.generationConfig as { thinkingConfig: unknown }).thinkingConfig;
    assert.deepEqual(thinking({ enabled: false }), { thinkingBudget: 0 });
    assert.deepEqual(thinking({ enabled: true, effort: 'none' }), { thinkingBudget: 0 });
    assert.deepEqual(thinking({ enabled: true, effort: 'low' }), { includeThoughts: true, thinkingBudget: 1024 });
    assert.deepEqual(thinking({ enabled: true, effort: 'medium' }), { includeThoughts: true, thinkingBudget: 8192 });
    assert.deepEqual(thinking({ enabled: true, effort: 'high' }), { includeThoughts: true, thinkingBudget: 24576 });
    assert.deepEqual(thinking({ enabled: true, budgetTokens: 3000, effort: 'high' }), { includeThoughts: true, thinkingBudget: 3000 });
    assert.deepEqual(thinking({ enabled: true }), { includeThoughts: true, thinkingBudget: -1 });
  });

  test('parallelToolCalls false and user are reported as unsupported', () => {
    const { warnings } = encode({ parallelToolCalls: false, user: 'u-1' });
    assert.deepEqual(warnings, [
      { type: 'unsupported', feature: 'parallelToolCalls' },
      { type: 'unsupported', feature: 'user' },
    ]);
  });
});
