import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

type Json = Record<string, any>;

/**
 * Codex's custom (freeform) tools, e.g. `apply_patch` with a Lark grammar, through a Responses
 * client on every translated upstream: offered upstream as a function with one string `input`,
 * and the call comes back as a `custom_tool_call` with that input, plain and streamed.
 */
const UPSTREAMS = [
  { name: 'anthropic', model: 'custom-anthropic', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-6' },
  { name: 'gemini', model: 'custom-gemini', provider: 'gemini', upstreamModel: 'gemini-2.5-pro' },
  { name: 'openai-chat', model: 'custom-chat', provider: 'openai', upstreamModel: 'gpt-4o' },
] as const;

const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+Hello "world"\n*** End Patch';
const APPLY_PATCH: OpenAI.Responses.Tool = {
  type: 'custom',
  name: 'apply_patch',
  description: 'Apply a patch to files.',
  format: { type: 'grammar', syntax: 'lark', definition: 'start: /(.|\\n)+/' },
};
const SHELL: OpenAI.Responses.Tool = {
  type: 'function',
  name: 'shell',
  parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] },
  strict: false,
};

describe('custom (freeform) tools come back as custom tool calls', { concurrency: false }, () => {
  let harness: Harness;
  let client: OpenAI;

  before(async () => {
    harness = await startHarness();
    for (const upstream of UPSTREAMS) {
      await harness.addChannel({
        provider: upstream.provider,
        models: [upstream.model],
        modelMap: { [upstream.model]: upstream.upstreamModel },
        supportsResponses: false,
      });
    }
    client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: (await harness.addKey()).key, maxRetries: 0 });
  });
  after(() => harness.close());

  for (const upstream of UPSTREAMS) {
    test(`${upstream.name}: plain`, async () => {
      harness.simulator.enqueue({
        toolCalls: [
          { id: 'call_patch', name: 'apply_patch', arguments: { input: PATCH } },
          { id: 'call_ls', name: 'shell', arguments: { command: ['ls'] } },
        ],
      });
      const response = await client.responses.create({ model: upstream.model, input: 'Create hello.txt', tools: [APPLY_PATCH, SHELL], store: false });
      const [patch, shell] = response.output;
      assert.equal(patch?.type, 'custom_tool_call');
      assert.ok(patch?.type === 'custom_tool_call');
      assert.equal(patch.name, 'apply_patch');
      assert.equal(patch.input, PATCH);
      assert.match(patch.id ?? '', /^ctc_/);
      assert.equal(shell?.type, 'function_call', 'a function tool stays a function call');
      assertOfferedAsFunction(harness, upstream.name);
    });

    test(`${upstream.name}: streamed`, async () => {
      harness.simulator.enqueue({ toolCalls: [{ id: 'call_patch', name: 'apply_patch', arguments: { input: PATCH } }] });
      const stream = await client.responses.create({ model: upstream.model, input: 'Create hello.txt', tools: [APPLY_PATCH], store: false, stream: true });
      let deltas = '';
      let done: string | undefined;
      let item: Json | undefined;
      let final: OpenAI.Responses.Response | undefined;
      for await (const event of stream) {
        if (event.type === 'response.custom_tool_call_input.delta') deltas += event.delta;
        if (event.type === 'response.custom_tool_call_input.done') done = event.input;
        if (event.type === 'response.output_item.done') item = event.item as Json;
        if (event.type === 'response.completed') final = event.response;
      }
      assert.equal(deltas, PATCH);
      assert.equal(done, PATCH);
      assert.equal(item?.type, 'custom_tool_call');
      assert.equal(item?.input, PATCH);
      assert.equal(final?.output[0]?.type, 'custom_tool_call');
    });

    test(`${upstream.name}: the custom tool's output goes back as the function's result`, async () => {
      harness.simulator.enqueue({ text: 'Done.' });
      const response = await client.responses.create({
        model: upstream.model,
        store: false,
        tools: [APPLY_PATCH],
        input: [
          { role: 'user', content: 'Create hello.txt' },
          { type: 'custom_tool_call', call_id: 'call_patch', name: 'apply_patch', input: PATCH },
          { type: 'custom_tool_call_output', call_id: 'call_patch', output: 'Success. Updated the following files:\nA hello.txt' },
        ],
      });
      assert.equal(response.output_text, 'Done.');
      const upstreamText = harness.simulator.lastRequest()!.rawBody;
      assert.ok(upstreamText.includes('Success. Updated the following files'), 'the tool output reached the upstream');
      assert.ok(
        upstreamText.includes(JSON.stringify(JSON.stringify({ input: PATCH })).slice(1, -1)) || upstreamText.includes('Begin Patch'),
        'the call reached the upstream',
      );
    });
  }
});

/**
 * OpenAI Chat clients declare custom tools too (`{"type":"custom","custom":{name, format}}`): the
 * same translation, and the call comes back as a chat custom tool call, plain and streamed (the
 * stream's deltas assembled here: the stream helper of openai 6.x — the newest that installs on
 * Node 20 — assembles only function calls).
 */
describe('chat completions custom tools come back as custom tool calls', { concurrency: false }, () => {
  let harness: Harness;
  let client: OpenAI;
  const CHAT_UPSTREAMS = UPSTREAMS.filter((upstream) => upstream.name !== 'openai-chat');
  const CHAT_PATCH: OpenAI.ChatCompletionCustomTool = {
    type: 'custom',
    custom: {
      name: 'apply_patch',
      description: 'Apply a patch to files.',
      format: { type: 'grammar', grammar: { syntax: 'lark', definition: 'start: /(.|\\n)+/' } },
    },
  };
  const CHAT_SHELL: OpenAI.ChatCompletionFunctionTool = {
    type: 'function',
    function: { name: 'shell', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] } },
  };

  before(async () => {
    harness = await startHarness();
    for (const upstream of CHAT_UPSTREAMS) {
      await harness.addChannel({ provider: upstream.provider, models: [upstream.model], modelMap: { [upstream.model]: upstream.upstreamModel } });
    }
    client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: (await harness.addKey()).key, maxRetries: 0 });
  });
  after(() => harness.close());

  for (const upstream of CHAT_UPSTREAMS) {
    for (const stream of [false, true]) {
      test(`${upstream.name}${stream ? ' (streamed)' : ''}: a call to a custom tool is a custom tool call; a function stays a function`, async () => {
        harness.simulator.enqueue({
          toolCalls: [
            { id: 'call_patch', name: 'apply_patch', arguments: { input: PATCH } },
            { id: 'call_ls', name: 'shell', arguments: { command: ['ls'] } },
          ],
        });
        const body = { model: upstream.model, messages: [{ role: 'user' as const, content: 'Create hello.txt' }], tools: [CHAT_PATCH, CHAT_SHELL] };
        const completion = stream
          ? await assembleChatStream(await client.chat.completions.create({ ...body, stream: true }))
          : await client.chat.completions.create(body);
        const [patch, shell] = completion.choices[0]!.message.tool_calls ?? [];
        assert.equal(patch?.type, 'custom');
        assert.ok(patch?.type === 'custom');
        assert.equal(patch.custom.name, 'apply_patch');
        assert.equal(patch.custom.input, PATCH);
        assert.equal(shell?.type, 'function');
        assert.ok(shell?.type === 'function');
        assert.deepEqual(JSON.parse(shell.function.arguments), { command: ['ls'] });
        assertOfferedAsFunction(harness, upstream.name);

        // The next turn: the custom call and its output go back and reach the upstream.
        harness.simulator.enqueue({ text: 'Done.' });
        const next = await client.chat.completions.create({
          ...body,
          messages: [
            ...body.messages,
            completion.choices[0]!.message as OpenAI.ChatCompletionAssistantMessageParam,
            { role: 'tool', tool_call_id: patch.id, content: 'Success. Updated the following files:\nA hello.txt' },
            { role: 'tool', tool_call_id: shell.id, content: 'hello.txt' },
          ],
        });
        assert.equal(next.choices[0]!.message.content, 'Done.');
        const upstreamText = harness.simulator.lastRequest()!.rawBody;
        assert.ok(upstreamText.includes('Success. Updated the following files'), 'the tool output reached the upstream');
        assert.ok(upstreamText.includes('Begin Patch'), 'the call reached the upstream');
      });
    }
  }
});

/** The upstream was offered apply_patch as a function taking one string, `input`. */
function assertOfferedAsFunction(harness: Harness, name: string): void {
  const body = harness.simulator.lastRequest()!.body as Json;
  const text = JSON.stringify(body.tools ?? body);
  assert.match(text, /apply_patch/, `${name}: offered`);
  assert.match(text, /"input"/, `${name}: with its one string parameter`);
}

/** The streamed chat completion as one completion: text and tool calls (function and custom) put together from their deltas. */
async function assembleChatStream(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<{ choices: Array<{ message: OpenAI.ChatCompletionMessage }> }> {
  type Delta = { index: number; id?: string; type?: string; function?: { name?: string; arguments?: string }; custom?: { name?: string; input?: string } };
  const calls: Array<{ id: string; type: string; name: string; text: string }> = [];
  let content = '';
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta as { content?: string | null; tool_calls?: Delta[] } | undefined;
    content += delta?.content ?? '';
    for (const part of delta?.tool_calls ?? []) {
      const call = (calls[part.index] ??= { id: '', type: 'function', name: '', text: '' });
      if (part.id) call.id = part.id;
      if (part.type) call.type = part.type;
      call.name += part.function?.name ?? part.custom?.name ?? '';
      call.text += part.function?.arguments ?? part.custom?.input ?? '';
    }
  }
  const toolCalls = calls.map((call) =>
    call.type === 'custom'
      ? { id: call.id, type: 'custom' as const, custom: { name: call.name, input: call.text } }
      : { id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.text } },
  );
  const message = { role: 'assistant', content: content === '' ? null : content, refusal: null, tool_calls: toolCalls } as OpenAI.ChatCompletionMessage;
  return { choices: [{ message }] };
}
