import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertInvalidRequest } from '../../../test/helpers/assert-invalid-request.ts';
import { decodeOpenAiChatRequest } from './decode-openai-chat-request.ts';
import { readOpenAiChatIncludeUsage } from './peek-openai-chat-request.ts';

const decode = (body: unknown) => decodeOpenAiChatRequest({ body });

function assertInvalid(body: unknown, param: string | undefined, pattern: RegExp): void {
  assertInvalidRequest(() => decode(body), param, pattern);
}

describe('decodeOpenAiChatRequest', () => {
  test('plain text turn with parameters', () => {
    const { value, warnings } = decode({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 100,
      stop: 'END',
      n: 1,
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      user: 'u1',
      stream: true,
      stream_options: { include_usage: true },
      logit_bias: { '42': 1 },
      some_future_field: { x: 1 },
    });
    assert.deepEqual(value, {
      model: 'gpt-4o',
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [],
      stream: true,
      maxOutputTokens: 100,
      temperature: 0.2,
      topP: 0.9,
      seed: 7,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      candidateCount: 1,
      stopSequences: ['END'],
      user: 'u1',
    });
    assert.deepEqual(warnings, []);
  });

  test('null optional fields mean "not said", and max_completion_tokens wins over max_tokens', () => {
    const { value } = decode({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      temperature: null,
      stop: null,
      max_tokens: 10,
      max_completion_tokens: 20,
      temperature_zero_is_kept: 0,
    });
    assert.equal(value.temperature, undefined);
    assert.equal(value.stopSequences, undefined);
    assert.equal(value.maxOutputTokens, 20);
    assert.equal(decode({ model: 'm', messages: [{ role: 'user', content: 'x' }], temperature: 0 }).value.temperature, 0);
  });

  test('system and developer messages are hoisted in order, string or parts', () => {
    const { value } = decode({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'a' },
        { role: 'developer', content: [{ type: 'text', text: 'Use French.' }] },
      ],
    });
    assert.deepEqual(value.system, [
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'Use French.' },
    ]);
    assert.equal(value.messages.length, 1);
  });

  test('images: data URLs become base64, http URLs stay links, detail is kept; files decode', () => {
    const { value } = decode({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'high' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
          ],
        },
      ],
    });
    assert.deepEqual(value.messages[0], {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' }, detail: 'high' },
        { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' } },
        { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'a.pdf' },
      ],
    });
  });

  test('multi-turn with parallel tool calls: consecutive tool messages merge and recover tool names', () => {
    const { value } = decode({
      model: 'm',
      messages: [
        { role: 'user', content: 'weather and time?' },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'two tools',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '12:00' }] },
        { role: 'assistant', content: 'Sunny, noon.' },
      ],
    });
    assert.deepEqual(value.messages.slice(1), [
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'two tools' },
          { type: 'tool-call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', callId: 'call_2', name: 'get_time', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', callId: 'call_1', name: 'get_weather', content: [{ type: 'text', text: 'sunny' }] },
          { type: 'tool-result', callId: 'call_2', name: 'get_time', content: [{ type: 'text', text: '12:00' }] },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Sunny, noon.' }] },
    ]);
  });

  test('tools, tool_choice, response_format and reasoning_effort', () => {
    const { value, warnings } = decode({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tools: [
        {
          type: 'function',
          function: { name: 'f', description: 'does f', parameters: { type: 'object', properties: { a: { type: 'string' } } }, strict: true },
        },
        { type: 'function', function: { name: 'g' } },
        { type: 'custom', custom: { name: 'apply_patch', description: 'patch' } },
      ],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' }, strict: true } },
      reasoning_effort: 'high',
    });
    assert.deepEqual(value.tools[0], {
      name: 'f',
      description: 'does f',
      parameters: { type: 'object', properties: { a: { type: 'string' } } },
      strict: true,
    });
    assert.deepEqual(value.tools[1], { name: 'g', parameters: { type: 'object', properties: {} } });
    assert.equal(value.tools[2]?.name, 'apply_patch');
    assert.deepEqual((value.tools[2]?.parameters as { required: string[] }).required, ['input']);
    assert.deepEqual(value.toolChoice, { type: 'tool', name: 'f' });
    assert.equal(value.parallelToolCalls, false);
    assert.deepEqual(value.responseFormat, { type: 'json', schema: { type: 'object' }, name: 'out', strict: true });
    assert.deepEqual(value.reasoning, { enabled: true, effort: 'high' });
    assert.deepEqual(
      warnings.map((warning) => warning.feature),
      ['custom_tool'],
    );
  });

  test('allowed_tools tool choice degrades to its mode with a warning; json_object becomes json', () => {
    const { value, warnings } = decode({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [] } },
      response_format: { type: 'json_object' },
      reasoning_effort: 'none',
    });
    assert.deepEqual(value.toolChoice, { type: 'required' });
    assert.deepEqual(value.responseFormat, { type: 'json' });
    assert.deepEqual(value.reasoning, { enabled: false, effort: 'none' });
    assert.equal(warnings[0]?.feature, 'tool_choice.allowed_tools');
  });

  test('assistant refusal and text parts are kept as text', () => {
    const { value } = decode({
      model: 'm',
      messages: [
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'a' },
            { type: 'refusal', refusal: 'no' },
          ],
        },
      ],
    });
    assert.deepEqual(value.messages[1]?.content, [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'no' },
    ]);
  });

  test('include_usage is read from stream_options', () => {
    assert.equal(readOpenAiChatIncludeUsage({ stream_options: { include_usage: true } }), true);
    assert.equal(readOpenAiChatIncludeUsage({ stream: true }), false);
    assert.equal(readOpenAiChatIncludeUsage(null), false);
  });

  test('junk bodies are rejected by name, never with a TypeError', () => {
    assertInvalid(null, undefined, /JSON object/);
    assertInvalid([1, 2], undefined, /JSON object/);
    assertInvalid(42, undefined, /JSON object/);
    assertInvalid('hello', undefined, /JSON object/);
    assertInvalid({ messages: [{ role: 'user', content: 'x' }] }, 'model', /'model' is required/);
    assertInvalid({ model: 5, messages: [] }, 'model', /string/);
    assertInvalid({ model: 'm' }, 'messages', /non-empty array/);
    assertInvalid({ model: 'm', messages: [] }, 'messages', /non-empty array/);
    assertInvalid({ model: 'm', messages: 'hi' }, 'messages', /non-empty array/);
    assertInvalid({ model: 'm', messages: [null] }, 'messages[0]', /message object/);
    assertInvalid({ model: 'm', messages: [{ role: 'wizard', content: 'x' }] }, 'messages[0].role', /got "wizard"/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: 7 }] }, 'messages[0].content', /string or an array/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: [{ type: 'video' }] }] }, 'messages[0].content[0].type', /text, image_url/);
    assertInvalid({ model: 'm', messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id', /tool_call_id/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: 'x' }], temperature: 'hot' }, 'temperature', /number/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: -1 }, 'max_tokens', /non-negative integer/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: 'x' }], stop: [1] }, 'stop', /strings/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: 'x' }], tools: {} }, 'tools', /array/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function' }] }, 'tools[0].function.name', /function/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: 'x' }], tool_choice: 'sometimes' }, 'tool_choice', /auto/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'extreme' }, 'reasoning_effort', /one of/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: 'yes' }, 'stream', /true or false/);
  });
});
