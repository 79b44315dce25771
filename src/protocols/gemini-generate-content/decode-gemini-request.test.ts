import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { decodeGeminiRequest } from './decode-gemini-request.ts';

const decode = (body: unknown, extra: { pathModel?: string; pathStream?: boolean } = {}) =>
  decodeGeminiRequest({ body, pathModel: 'models/gemini-2.5-flash', ...extra }, createFixedRuntime());

describe('decodeGeminiRequest', () => {
  test('plain text: model from the path without the models/ prefix, stream from the path', () => {
    const { value, warnings } = decode({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, { pathStream: true });
    assert.deepEqual(value, {
      model: 'gemini-2.5-flash',
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [],
      stream: true,
    });
    assert.deepEqual(warnings, []);
    assert.equal(decode({ contents: [] }).value.stream, false);
  });

  test('systemInstruction becomes system; a missing role means the user', () => {
    const { value } = decode({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Be kind.' }] },
      contents: [{ parts: [{ text: 'hi' }] }],
    });
    assert.deepEqual(value.system, [
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'Be kind.' },
    ]);
    assert.equal(value.messages[0]?.role, 'user');
  });

  test('multi-turn keeps order and maps model to assistant; consecutive same-role turns merge', () => {
    const { value } = decode({
      contents: [
        { role: 'user', parts: [{ text: 'a' }] },
        { role: 'user', parts: [{ text: 'b' }] },
        { role: 'model', parts: [{ text: 'c' }] },
        { role: 'user', parts: [{ text: 'd' }] },
      ],
    });
    assert.deepEqual(value.messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'c' }] },
      { role: 'user', content: [{ type: 'text', text: 'd' }] },
    ]);
  });

  test('snake_case keys are accepted, but argument names inside args stay as sent', () => {
    const { value } = decode({
      system_instruction: { parts: [{ text: 'sys' }] },
      contents: [
        { role: 'user', parts: [{ inline_data: { mime_type: 'image/png', data: 'AAAA' } }] },
        { role: 'model', parts: [{ function_call: { name: 'lookup', args: { user_id: 7 } }, thought_signature: 'sig' }] },
      ],
      generation_config: { max_output_tokens: 50, stop_sequences: ['x'], thinking_config: { thinking_budget: 0 } },
      tool_config: { function_calling_config: { mode: 'NONE' } },
    });
    assert.deepEqual(value.system, [{ type: 'text', text: 'sys' }]);
    assert.deepEqual(value.messages[0], {
      role: 'user',
      content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } }],
    });
    assert.deepEqual(value.messages[1], {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          callId: 'call_0001',
          name: 'lookup',
          arguments: '{"user_id":7}',
          providerMetadata: { gemini: { thoughtSignature: 'sig' } },
        },
      ],
    });
    assert.equal(value.maxOutputTokens, 50);
    assert.deepEqual(value.stopSequences, ['x']);
    assert.deepEqual(value.reasoning, { enabled: false });
    assert.deepEqual(value.toolChoice, { type: 'none' });
  });

  test('inlineData of a non-image type becomes a file; fileData becomes a url source', () => {
    const { value } = decode({
      contents: [
        {
          role: 'user',
          parts: [
            { inlineData: { mimeType: 'application/pdf', data: 'JVBE' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'gs://b/cat.jpg' } },
            { fileData: { fileUri: 'https://example.com/doc' } },
          ],
        },
      ],
    });
    assert.deepEqual(value.messages[0]?.content, [
      { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' } },
      { type: 'image', source: { kind: 'url', url: 'gs://b/cat.jpg', mediaType: 'image/jpeg' } },
      { type: 'file', source: { kind: 'url', url: 'https://example.com/doc' } },
    ]);
  });

  test('parallel function calls with ids, answered in one user turn, then user text', () => {
    const { value } = decode({
      contents: [
        { role: 'user', parts: [{ text: 'weather?' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'a1', name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'S1' },
            { functionCall: { id: 'b2', name: 'weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'b2', name: 'weather', response: { output: 'hot' } } },
            { functionResponse: { id: 'a1', name: 'weather', response: { temp: 12 } } },
            { text: 'thanks' },
          ],
        },
      ],
    });
    assert.deepEqual(value.messages.slice(1), [
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', callId: 'a1', name: 'weather', arguments: '{"city":"Paris"}', providerMetadata: { gemini: { thoughtSignature: 'S1' } } },
          { type: 'tool-call', callId: 'b2', name: 'weather', arguments: '{"city":"Rome"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', callId: 'b2', name: 'weather', content: [{ type: 'text', text: 'hot' }] },
          { type: 'tool-result', callId: 'a1', name: 'weather', content: [{ type: 'text', text: '{"temp":12}' }] },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ]);
  });

  test('without ids, calls get synthetic ids and responses match the earliest unanswered call of that name', () => {
    const { value } = decode({
      contents: [
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'read', args: { path: 'a' } } },
            { functionCall: { name: 'list', args: {} } },
            { functionCall: { name: 'read', args: { path: 'b' } } },
          ],
        },
        {
          role: 'function',
          parts: [
            { functionResponse: { name: 'list', response: { result: 'x' } } },
            { functionResponse: { name: 'read', response: { output: 'A' } } },
            { functionResponse: { name: 'read', response: { error: 'no such file' } } },
          ],
        },
      ],
    });
    const calls = value.messages[0]?.content.map((part) => (part.type === 'tool-call' ? [part.name, part.callId] : []));
    assert.deepEqual(calls, [
      ['read', 'call_0001'],
      ['list', 'call_0002'],
      ['read', 'call_0003'],
    ]);
    assert.deepEqual(value.messages[1], {
      role: 'tool',
      content: [
        { type: 'tool-result', callId: 'call_0002', name: 'list', content: [{ type: 'text', text: 'x' }] },
        { type: 'tool-result', callId: 'call_0001', name: 'read', content: [{ type: 'text', text: 'A' }] },
        { type: 'tool-result', callId: 'call_0003', name: 'read', content: [{ type: 'text', text: 'no such file' }], isError: true },
      ],
    });
  });

  test('thought parts become reasoning with their signature; signed text keeps its signature', () => {
    const { value } = decode({
      contents: [
        { role: 'user', parts: [{ text: 'q' }] },
        {
          role: 'model',
          parts: [
            { text: 'thinking…', thought: true, thoughtSignature: 'c2lnLTE=' },
            { text: 'answer', thoughtSignature: 'c2lnLTI=' },
          ],
        },
      ],
    });
    assert.deepEqual(value.messages[1]?.content, [
      { type: 'reasoning', text: 'thinking…', providerMetadata: { gemini: { thoughtSignature: 'c2lnLTE=' } } },
      { type: 'text', text: 'answer', providerMetadata: { gemini: { thoughtSignature: 'c2lnLTI=' } } },
    ]);
  });

  test('generationConfig maps every sampling field, JSON output and thinking', () => {
    const { value } = decode({
      contents: [],
      generationConfig: {
        temperature: 0.2,
        topP: 0.9,
        topK: 40,
        maxOutputTokens: 100,
        stopSequences: ['END'],
        candidateCount: 1,
        seed: 7,
        presencePenalty: 0.1,
        frequencyPenalty: 0.3,
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object', properties: { a: { type: 'string' } } },
        thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 },
      },
    });
    assert.deepEqual(
      { ...value, messages: undefined, system: undefined, tools: undefined },
      {
        model: 'gemini-2.5-flash',
        temperature: 0.2,
        topP: 0.9,
        topK: 40,
        maxOutputTokens: 100,
        stopSequences: ['END'],
        candidateCount: 1,
        seed: 7,
        presencePenalty: 0.1,
        frequencyPenalty: 0.3,
        responseFormat: { type: 'json', schema: { type: 'object', properties: { a: { type: 'string' } } } },
        reasoning: { enabled: true, budgetTokens: 8192 },
        stream: false,
        messages: undefined,
        system: undefined,
        tools: undefined,
      },
    );
  });

  test('thinking: -1 is dynamic, a level becomes an effort, includeThoughts alone turns it on', () => {
    const reasoning = (thinkingConfig: unknown) => decode({ contents: [], generationConfig: { thinkingConfig } }).value.reasoning;
    assert.deepEqual(reasoning({ thinkingBudget: -1 }), { enabled: true });
    assert.deepEqual(reasoning({ includeThoughts: true, thinkingLevel: 'HIGH' }), { enabled: true, effort: 'high' });
    assert.deepEqual(reasoning({ includeThoughts: true }), { enabled: true });
    assert.equal(reasoning({ includeThoughts: false }), undefined);
  });

  test('responseSchema in the OpenAPI subset is converted to JSON Schema', () => {
    const { value } = decode({
      contents: [],
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { n: { type: 'INTEGER', nullable: true } }, propertyOrdering: ['n'] },
      },
    });
    assert.deepEqual(value.responseFormat, {
      type: 'json',
      schema: { type: 'object', properties: { n: { type: ['integer', 'null'] } } },
    });
  });

  test('tools: OpenAPI parameters are converted, parametersJsonSchema passes untouched, built-ins warn', () => {
    const jsonSchema = { type: 'object', properties: { q: { type: 'string', minLength: 1 } }, additionalProperties: false };
    const { value, warnings } = decode({
      contents: [],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'search',
              description: 'Search',
              parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' }, tags: { type: 'ARRAY', items: { type: 'STRING' } } }, required: ['q'] },
            },
            { name: 'fetch', parametersJsonSchema: jsonSchema },
            { name: 'ping' },
          ],
        },
        { googleSearch: {} },
        { codeExecution: {} },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['fetch'] } },
    });
    assert.deepEqual(value.tools, [
      {
        name: 'search',
        description: 'Search',
        parameters: { type: 'object', properties: { q: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['q'] },
      },
      { name: 'fetch', parameters: jsonSchema },
      { name: 'ping', parameters: { type: 'object', properties: {} } },
    ]);
    assert.deepEqual(value.toolChoice, { type: 'tool', name: 'fetch' });
    assert.deepEqual(warnings, [
      { type: 'unsupported', feature: 'tools.googleSearch' },
      { type: 'unsupported', feature: 'tools.codeExecution' },
    ]);
  });

  test('tool config modes', () => {
    const choice = (functionCallingConfig: unknown) => decode({ contents: [], toolConfig: { functionCallingConfig } }).value.toolChoice;
    assert.deepEqual(choice({ mode: 'AUTO' }), { type: 'auto' });
    assert.deepEqual(choice({ mode: 'ANY' }), { type: 'required' });
    assert.deepEqual(choice({ mode: 'NONE' }), { type: 'none' });
    assert.equal(choice({}), undefined);
  });

  test('unknown fields are tolerated; safetySettings and cachedContent are reported, not dropped silently', () => {
    const { value, warnings } = decode({
      contents: [{ role: 'user', parts: [{ text: 'hi', someFutureField: 1 }], extra: true }],
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      cachedContent: 'cachedContents/abc',
      labels: { team: 'x' },
      brandNewTopLevel: { a: 1 },
    });
    assert.deepEqual(value.messages, [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    assert.deepEqual(warnings, [
      { type: 'unsupported', feature: 'safetySettings' },
      { type: 'unsupported', feature: 'cachedContent' },
    ]);
  });
});
