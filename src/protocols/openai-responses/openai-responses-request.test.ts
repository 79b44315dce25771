import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest } from '../../core/chat-request.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import { decodeOpenAiResponsesRequest } from './decode-openai-responses-request.ts';
import { encodeOpenAiResponsesRequest } from './encode-openai-responses-request.ts';

const decode = (body: unknown) => decodeOpenAiResponsesRequest({ body });

/** A Codex-style turn: instructions, developer message, history with reasoning and a tool round trip. */
const codexBody = {
  model: 'gpt-5-codex',
  instructions: 'You are Codex.',
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Sandbox: read-only.' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] },
    {
      type: 'reasoning',
      id: 'rs_1',
      summary: [
        { type: 'summary_text', text: 'Plan' },
        { type: 'summary_text', text: 'Run ls' },
      ],
      encrypted_content: 'gAAA',
    },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'shell', arguments: '{"command":["ls"]}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'a.txt\nb.txt' },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Two files.' }] },
    { role: 'user', content: 'thanks' },
  ],
  tools: [
    { type: 'function', name: 'shell', description: 'run', parameters: { type: 'object', properties: { command: { type: 'array' } } }, strict: false },
    { type: 'custom', name: 'apply_patch', description: 'patch', format: { type: 'grammar', syntax: 'lark', definition: '...' } },
    { type: 'web_search' },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  reasoning: { effort: 'medium', summary: 'auto' },
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  prompt_cache_key: 'abc',
  text: { verbosity: 'low' },
};

describe('decodeOpenAiResponsesRequest', () => {
  test('a Codex turn decodes to canonical history with reasoning, tool round trip and name recovery', () => {
    const { value, warnings } = decode(codexBody);
    assert.deepEqual(value.system, [
      { type: 'text', text: 'You are Codex.' },
      { type: 'text', text: 'Sandbox: read-only.' },
    ]);
    assert.deepEqual(value.messages, [
      { role: 'user', content: [{ type: 'text', text: 'list files' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Plan\n\nRun ls', providerMetadata: { openai: { itemId: 'rs_1', encryptedContent: 'gAAA' } } },
          { type: 'tool-call', callId: 'call_1', name: 'shell', arguments: '{"command":["ls"]}', providerMetadata: { openai: { itemId: 'fc_1' } } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', callId: 'call_1', name: 'shell', content: [{ type: 'text', text: 'a.txt\nb.txt' }] }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Two files.' }] },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ]);
    assert.deepEqual(
      value.tools.map((tool) => tool.name),
      ['shell', 'apply_patch'],
    );
    assert.equal(value.tools[0]?.strict, false);
    assert.deepEqual(value.toolChoice, { type: 'auto' });
    assert.equal(value.parallelToolCalls, false);
    assert.deepEqual(value.reasoning, { enabled: true, effort: 'medium' });
    assert.equal(value.stream, true);
    assert.deepEqual(
      warnings.map((warning) => warning.feature),
      ['custom_tool', 'tools.web_search'],
    );
  });

  test('string input, images, files, custom tool calls, json schema and stateless warnings', () => {
    assert.deepEqual(decode({ model: 'm', input: 'hi' }).value.messages, [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    const { value, warnings } = decode({
      model: 'm',
      previous_response_id: 'resp_old',
      max_output_tokens: 64,
      temperature: 0.5,
      top_p: 1,
      user: 'u',
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/', detail: 'low' },
            { type: 'input_image', image_url: 'https://x/cat.png' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' },
          ],
        },
        { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'c1', output: 'Done' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      ],
    });
    assert.deepEqual(value.messages[0]?.content, [
      { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: '/9j/' }, detail: 'low' },
      { type: 'image', source: { kind: 'url', url: 'https://x/cat.png' } },
      { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' }, filename: 'a.pdf' },
    ]);
    assert.deepEqual(value.messages[1]?.content, [{ type: 'tool-call', callId: 'c1', name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' }]);
    assert.deepEqual(value.messages[2]?.content, [{ type: 'tool-result', callId: 'c1', name: 'apply_patch', content: [{ type: 'text', text: 'Done' }] }]);
    assert.equal(value.messages.length, 3);
    assert.equal(value.maxOutputTokens, 64);
    assert.equal(value.temperature, 0.5);
    assert.deepEqual(value.responseFormat, { type: 'json', schema: { type: 'object' }, name: 'out', strict: true });
    assert.deepEqual(
      warnings.map((warning) => warning.feature),
      ['input.web_search_call', 'previous_response_id'],
    );
  });

  test('junk is rejected with the field named', () => {
    const cases: Array<[unknown, string | undefined]> = [
      [null, undefined],
      [[], undefined],
      [{ input: 'x' }, 'model'],
      [{ model: 'm' }, 'input'],
      [{ model: 'm', input: [] }, 'input'],
      [{ model: 'm', input: 5 }, 'input'],
      [{ model: 'm', input: [7] }, 'input[0]'],
      [{ model: 'm', input: [{ content: 'x' }] }, 'input[0].type'],
      [{ model: 'm', input: [{ type: 'message', role: 'robot', content: 'x' }] }, 'input[0].role'],
      [{ model: 'm', input: [{ type: 'function_call', name: 'f' }] }, 'input[0].call_id'],
      [{ model: 'm', input: [{ role: 'user', content: [{ type: 'input_video' }] }] }, 'input[0].content[0].type'],
      [{ model: 'm', input: 'x', reasoning: { effort: 'huge' } }, 'reasoning.effort'],
      [{ model: 'm', input: 'x', max_output_tokens: 1.5 }, 'max_output_tokens'],
      [{ model: 'm', input: 'x', tools: [{ type: 'function' }] }, 'tools[0].name'],
    ];
    for (const [body, param] of cases) {
      assert.throws(
        () => decode(body),
        (error: unknown) => error instanceof GatewayError && error.code === 'invalid_request' && error.param === param,
        JSON.stringify(body),
      );
    }
  });
});

describe('encodeOpenAiResponsesRequest', () => {
  test('stateless body: instructions, items without ids, encrypted reasoning kept, foreign reasoning dropped', () => {
    const request: ChatRequest = {
      model: 'gpt-5',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'go' },
            { type: 'image', source: { kind: 'url', url: 'https://x/a.png' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'plan', providerMetadata: { openai: { itemId: 'rs_1', encryptedContent: 'gAAA' } } },
            { type: 'reasoning', text: 'claude thought', signature: 'sig' },
            { type: 'text', text: 'Running.' },
            { type: 'tool-call', callId: 'call_1', name: 'shell', arguments: '{}', providerMetadata: { openai: { itemId: 'fc_1' } } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'ok' }] }] },
      ],
      tools: [{ name: 'shell', parameters: { type: 'object' } }],
      toolChoice: { type: 'tool', name: 'shell' },
      maxOutputTokens: 100,
      stopSequences: ['x'],
      reasoning: { enabled: true, effort: 'high' },
      responseFormat: { type: 'json' },
      stream: true,
    };
    const { value, warnings } = encodeOpenAiResponsesRequest(request);
    assert.deepEqual(value.body, {
      model: 'gpt-5',
      instructions: 'Be brief.',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'go' },
            { type: 'input_image', image_url: 'https://x/a.png', detail: 'auto' },
          ],
        },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'gAAA' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Running.', annotations: [] }] },
        { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
      ],
      tools: [{ type: 'function', name: 'shell', parameters: { type: 'object' }, strict: false }],
      tool_choice: { type: 'function', name: 'shell' },
      max_output_tokens: 100,
      reasoning: { effort: 'high' },
      include: ['reasoning.encrypted_content'],
      text: { format: { type: 'json_object' } },
      stream: true,
      store: false,
    });
    assert.deepEqual(warnings.map((warning) => warning.feature).sort(), ['reasoning_history', 'stop']);
  });

  test('a json schema sits flat in text.format; a thinking budget becomes the nearest effort, or none when disabled', () => {
    const base: ChatRequest = { model: 'gpt-5', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], tools: [], stream: false };
    const { value, warnings } = encodeOpenAiResponsesRequest({
      ...base,
      responseFormat: { type: 'json', schema: { type: 'object' }, name: 'out', strict: true },
      reasoning: { enabled: true, budgetTokens: 10_000 },
    });
    assert.deepEqual(value.body.text, { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } });
    assert.deepEqual(value.body.reasoning, { effort: 'high' });
    assert.deepEqual(warnings, [{ type: 'clamped', feature: 'reasoning.budget_tokens', from: 10_000, to: 'high' }]);
    assert.deepEqual(encodeOpenAiResponsesRequest({ ...base, reasoning: { enabled: false } }).value.body.reasoning, { effort: 'none' });
    assert.equal('reasoning' in encodeOpenAiResponsesRequest({ ...base, reasoning: { enabled: true } }).value.body, false);
  });

  test('decode → encode → decode keeps a Codex turn', () => {
    const first = decode(codexBody).value;
    const again = decode(encodeOpenAiResponsesRequest(first).value.body).value;
    // Item ids are deliberately not sent upstream (store:false), so only they differ.
    const withoutIds = JSON.parse(
      JSON.stringify(first, (key, value) => {
        if (key !== 'providerMetadata') return value;
        const { itemId: _dropped, ...rest } = value.openai;
        return Object.keys(rest).length === 0 ? undefined : { openai: rest };
      }),
    );
    // Instructions and developer text travel as one string; tools go out with an explicit strict.
    withoutIds.system = [{ type: 'text', text: 'You are Codex.\n\nSandbox: read-only.' }];
    for (const tool of withoutIds.tools) tool.strict ??= false;
    assert.deepEqual(JSON.parse(JSON.stringify(again)), withoutIds);
  });
});

describe('the Responses codec says when its client asked for reasoning state', () => {
  test('only with include: ["reasoning.encrypted_content"]; protocols without the question always carry it', async () => {
    const { getCodec } = await import('../codec-registry.ts');
    const responses = getCodec('openai-responses');
    assert.equal(responses.asksForReasoningState?.({ include: ['reasoning.encrypted_content'] }), true);
    assert.equal(responses.asksForReasoningState?.({ include: ['file_search_call.results'] }), false);
    assert.equal(responses.asksForReasoningState?.({}), false);
    assert.equal(getCodec('anthropic-messages').asksForReasoningState, undefined);
  });
});
