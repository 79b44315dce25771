import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertInvalidRequest } from '../../../test/helpers/assert-invalid-request.ts';
import { decodeAnthropicRequest } from './decode-anthropic-request.ts';

const decode = (body: unknown) => decodeAnthropicRequest({ body });
const base = { model: 'claude-sonnet-4-6', max_tokens: 1024 };

function assertInvalid(body: unknown, param: string, pattern: RegExp): void {
  assertInvalidRequest(() => decode(body), param, pattern);
}

describe('decodeAnthropicRequest', () => {
  test('a plain text request keeps its parameters', () => {
    const { value, warnings } = decode({
      ...base,
      messages: [{ role: 'user', content: 'Hello' }],
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-7' },
      stream: true,
    });
    assert.deepEqual(value, {
      model: 'claude-sonnet-4-6',
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      tools: [],
      stream: true,
      maxOutputTokens: 1024,
      temperature: 0.3,
      topP: 0.9,
      topK: 40,
      stopSequences: ['END'],
      user: 'user-7',
    });
    assert.deepEqual(warnings, []);
  });

  test('system as a string and as blocks; cache_control kept; the billing header block dropped', () => {
    assert.deepEqual(decode({ ...base, system: 'Be brief.', messages: [] }).value.system, [{ type: 'text', text: 'Be brief.' }]);
    const { value } = decode({
      ...base,
      system: [
        { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.330; cc_entrypoint=cli' },
        { type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Be careful.' },
      ],
      messages: [],
    });
    assert.deepEqual(value.system, [
      { type: 'text', text: 'You are Claude Code.', providerMetadata: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
      { type: 'text', text: 'Be careful.' },
    ]);
  });

  test('system-role messages (Claude Code 2.1 sends them) are hoisted after the top-level system', () => {
    const { value } = decode({
      ...base,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'say hi' },
        { role: 'system', content: [{ type: 'text', text: '# Environment\nLinux' }] },
      ],
    });
    assert.deepEqual(
      value.system.map((part) => part.text),
      ['Be brief.', '# Environment\nLinux'],
    );
    assert.deepEqual(
      value.messages.map((message) => message.role),
      ['user'],
    );
    assertInvalid({ ...base, messages: [{ role: 'system', content: [{ type: 'image' }] }] }, 'messages.0.content.0', /text only/);
  });

  test('images (base64 and url) and documents become canonical parts', () => {
    const { value } = decode({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'document', title: 'spec.pdf', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hello' } },
            { type: 'text', text: 'What are these?' },
          ],
        },
      ],
    });
    assert.deepEqual(value.messages[0]?.content, [
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' } },
      { type: 'file', filename: 'spec.pdf', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
      { type: 'file', source: { kind: 'base64', mediaType: 'text/plain', data: Buffer.from('hello').toString('base64') } },
      { type: 'text', text: 'What are these?' },
    ]);
  });

  test('tool calls, and tool results split out before the rest of the user turn with names recovered', () => {
    const { value } = decode({
      ...base,
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here you go.' },
            { type: 'tool_result', tool_use_id: 'toolu_01', content: '18°C' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_02',
              is_error: true,
              content: [{ type: 'text', text: 'timeout' }],
            },
          ],
        },
      ],
    });
    assert.deepEqual(value.messages.slice(1), [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', callId: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', callId: 'toolu_02', name: 'get_weather', arguments: '{"city":"Rome"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', callId: 'toolu_01', name: 'get_weather', content: [{ type: 'text', text: '18°C' }] },
          { type: 'tool-result', callId: 'toolu_02', name: 'get_weather', isError: true, content: [{ type: 'text', text: 'timeout' }] },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Here you go.' }] },
    ]);
  });

  test('a user turn of only tool results becomes only a tool message', () => {
    const { value } = decode({
      ...base,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'ls', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9' }] },
      ],
    });
    assert.deepEqual(value.messages[1], { role: 'tool', content: [{ type: 'tool-result', callId: 'toolu_9', name: 'ls', content: [] }] });
    assert.equal(value.messages.length, 2);
  });

  test('thinking (signature kept byte for byte) and redacted thinking become reasoning parts', () => {
    const signature = 'EqQBCkYIBxgCKkD+/=\u00e9==';
    const { value } = decode({
      ...base,
      messages: [
        { role: 'user', content: 'Think.' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Let me see.', signature },
            { type: 'redacted_thinking', data: 'opaque-data' },
            { type: 'thinking', thinking: 'unsigned', signature: '' },
            { type: 'text', text: '42' },
          ],
        },
      ],
    });
    assert.deepEqual(value.messages[1]?.content, [
      { type: 'reasoning', text: 'Let me see.', signature },
      { type: 'reasoning', text: '', redactedData: 'opaque-data' },
      { type: 'reasoning', text: 'unsigned' },
      { type: 'text', text: '42' },
    ]);
  });

  test('tools, tool_choice and disable_parallel_tool_use; server tools skipped with a warning', () => {
    const { value, warnings } = decode({
      ...base,
      messages: [],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather for a city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          cache_control: { type: 'ephemeral' },
        },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
    });
    assert.deepEqual(value.tools, [
      {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        providerMetadata: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      },
    ]);
    assert.deepEqual(value.toolChoice, { type: 'required' });
    assert.equal(value.parallelToolCalls, false);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.type, 'unsupported');
    assert.deepEqual(decode({ ...base, messages: [], tool_choice: { type: 'tool', name: 'f' } }).value.toolChoice, { type: 'tool', name: 'f' });
    assert.deepEqual(decode({ ...base, messages: [], tool_choice: { type: 'none' } }).value.toolChoice, { type: 'none' });
  });

  test('thinking configs and output_config', () => {
    const reasoning = (extra: object) => decode({ ...base, messages: [], ...extra }).value.reasoning;
    assert.deepEqual(reasoning({ thinking: { type: 'enabled', budget_tokens: 2000 } }), { enabled: true, budgetTokens: 2000 });
    assert.deepEqual(reasoning({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } }), { enabled: true, effort: 'high' });
    assert.deepEqual(reasoning({ thinking: { type: 'disabled' } }), { enabled: false });
    assert.equal(reasoning({}), undefined);
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    assert.deepEqual(decode({ ...base, messages: [], output_config: { format: { type: 'json_schema', schema } } }).value.responseFormat, {
      type: 'json',
      schema,
    });
  });

  test('unknown fields are tolerated and max_tokens may be absent', () => {
    const { value } = decode({
      model: 'm',
      messages: [{ role: 'user', content: 'hi', some_future_field: 1 }],
      service_tier: 'auto',
      container: null,
      context_management: { edits: [] },
    });
    assert.equal(value.maxOutputTokens, undefined);
    assert.equal(value.stream, false);
    assert.deepEqual(value.messages, [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  test('malformed bodies throw invalid_request naming the field, never a TypeError', () => {
    assertInvalid(null, 'body', /JSON object/);
    assertInvalid([], 'body', /JSON object/);
    assertInvalid({ messages: [] }, 'model', /"model"/);
    assertInvalid({ model: 5, messages: [] }, 'model', /"model"/);
    assertInvalid({ model: 'm', messages: 'hi' }, 'messages', /"messages"/);
    assertInvalid({ model: 'm' }, 'messages', /"messages"/);
    assertInvalid({ model: 'm', messages: [null] }, 'messages.0', /messages\.0/);
    assertInvalid({ model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages.0.role', /role/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: [{ text: 'x' }] }] }, 'messages.0.content.0.type', /type/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: 42 }] }, 'messages.0.content', /content/);
    assertInvalid({ model: 'm', messages: [], max_tokens: 'lots' }, 'max_tokens', /max_tokens/);
    assertInvalid({ model: 'm', messages: [], system: 7 }, 'system', /system/);
    assertInvalid({ model: 'm', messages: [], tools: {} }, 'tools', /tools/);
    assertInvalid({ model: 'm', messages: [], tool_choice: { type: 'sometimes' } }, 'tool_choice.type', /tool_choice/);
    assertInvalid({ model: 'm', messages: [{ role: 'assistant', content: [{ type: 'tool_use', name: 'f', input: {} }] }] }, 'messages.0.content.0.id', /id/);
    assertInvalid({ model: 'm', messages: [{ role: 'user', content: [{ type: 'image', source: 'cat.png' }] }] }, 'messages.0.content.0.source', /source/);
  });

  test('blocks that cannot be translated are dropped with a warning', () => {
    const { value, warnings } = decode({
      ...base,
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
            { type: 'text', text: 'Found it.' },
          ],
        },
      ],
    });
    assert.deepEqual(value.messages, [{ role: 'assistant', content: [{ type: 'text', text: 'Found it.' }] }]);
    assert.deepEqual(
      warnings.map((warning) => warning.feature),
      ['content-block:server_tool_use'],
    );
  });
});
