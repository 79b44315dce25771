import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkConverseRequest } from './converse-request-rules.ts';

const user = (...content: unknown[]) => ({ role: 'user', content });
const assistant = (...content: unknown[]) => ({ role: 'assistant', content });
const TOOLS = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }] };
const toolUse = { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } };
const toolResult = { toolResult: { toolUseId: 'tooluse_1', content: [{ text: '18 °C' }] } };

test('a sound Converse body passes: system with a cache point, tools, a tool loop, images, thinking', () => {
  const body = {
    system: [{ text: 'Be brief.' }, { cachePoint: { type: 'default' } }],
    messages: [
      user({ text: 'Weather?' }, { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } }),
      assistant({ reasoningContent: { reasoningText: { text: 'Ask the tool.', signature: 'c2ln' } } }, toolUse),
      user(toolResult),
    ],
    inferenceConfig: { maxTokens: 4096, stopSequences: ['END'] },
    toolConfig: { ...TOOLS, toolChoice: { auto: {} } },
    additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } },
    additionalModelResponseFieldPaths: ['/stop_sequence'],
  };
  assert.equal(checkConverseRequest(body), undefined);
});

test('what bedrock-runtime refuses is refused, each with a message that says why', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['no messages', { messages: [] }, /required key \[messages\]/],
    ['a field Converse does not define', { messages: [user({ text: 'Hi' })], max_tokens: 10 }, /extraneous key \[max_tokens\]/],
    ['first message from the assistant', { messages: [assistant({ text: 'Hi' })] }, /start with a user message/],
    ['two user turns in a row', { messages: [user({ text: 'a' }), user({ text: 'b' })] }, /alternate/],
    ['an empty turn', { messages: [user()] }, /content field .* is empty/],
    ['blank text', { messages: [user({ text: ' ' })] }, /is blank/],
    ['a block with two members', { messages: [user({ text: 'a', image: {} })] }, /exactly one member/],
    ['an OpenAI-shaped block', { messages: [user({ type: 'text', text: 'a' })] }, /exactly one member/],
    ['tool blocks without toolConfig', { messages: [user({ text: 'a' }), assistant(toolUse), user(toolResult)] }, /toolConfig field must be defined/],
    ['a tool result answering nothing', { messages: [user(toolResult)], toolConfig: TOOLS }, /does not answer a toolUse/],
    ['a tool use left unanswered', { messages: [user({ text: 'a' }), assistant(toolUse), user({ text: 'b' })], toolConfig: TOOLS }, /has no toolResult/],
    [
      'a tool id Bedrock does not allow',
      { messages: [user({ text: 'a' }), assistant({ toolUse: { ...toolUse.toolUse, toolUseId: 'call.1' } })], toolConfig: TOOLS },
      /regular expression/,
    ],
    ['an image format Bedrock does not take', { messages: [user({ image: { format: 'bmp', source: { bytes: 'AAAA' } } })] }, /png, jpeg, gif, webp/],
    ['temperature above 1', { messages: [user({ text: 'a' })], inferenceConfig: { temperature: 1.5 } }, /between 0 and 1/],
    [
      'a thinking budget at or above maxTokens',
      {
        messages: [user({ text: 'a' })],
        inferenceConfig: { maxTokens: 2048 },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } },
      },
      /greater than `thinking.budget_tokens`/,
    ],
    [
      'thinking with a temperature',
      {
        messages: [user({ text: 'a' })],
        inferenceConfig: { maxTokens: 4096, temperature: 0.2 },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } },
      },
      /temperature/,
    ],
    [
      'thinking with a top_p under 0.95',
      {
        messages: [user({ text: 'a' })],
        inferenceConfig: { maxTokens: 4096, topP: 0.9 },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } },
      },
      /top_p/,
    ],
    [
      'a thinking tool loop without its reasoning',
      {
        messages: [user({ text: 'a' }), assistant(toolUse), user(toolResult)],
        toolConfig: TOOLS,
        inferenceConfig: { maxTokens: 4096 },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } },
      },
      /must start with a reasoningContent/,
    ],
  ];
  for (const [name, body, expected] of cases) assert.match(checkConverseRequest(body) ?? 'accepted', expected, name);
});
