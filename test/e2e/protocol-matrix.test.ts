import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/** Every client protocol × every upstream kind, plain, streamed and with tool calls, through the real SDKs. */
const UPSTREAMS = [
  { provider: 'openai', model: 'up-openai', protocol: 'openai-chat' },
  { provider: 'anthropic', model: 'up-anthropic', protocol: 'anthropic-messages' },
  { provider: 'gemini', model: 'up-gemini', protocol: 'gemini-generate-content' },
] as const;

const WEATHER_TOOL_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};

describe('protocol matrix through the real SDKs', () => {
  let harness: Harness;
  let key: string;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let genai: GoogleGenAI;

  before(async () => {
    harness = await startHarness();
    for (const upstream of UPSTREAMS) await harness.addChannel({ provider: upstream.provider, models: [upstream.model] });
    ({ key } = await harness.addKey());
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: harness.url, apiKey: key, maxRetries: 0 });
    genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: harness.url, apiVersion: 'v1beta' } });
  });
  after(() => harness.close());

  const answer = (text: string) => harness.simulator.enqueue({ text, usage: { input: 11, output: 5 } });
  const toolCall = () =>
    harness.simulator.enqueue({ toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { input: 20, output: 8 } });
  const assertUpstream = (protocol: string) => assert.equal(harness.simulator.lastRequest()?.protocol, protocol);

  for (const upstream of UPSTREAMS) {
    describe(`to a ${upstream.provider} channel`, () => {
      test('OpenAI chat: plain, streamed, tool call', async () => {
        answer('plain reply');
        const plain = await openai.chat.completions.create({ model: upstream.model, messages: [{ role: 'user', content: 'hi' }] });
        assert.equal(plain.choices[0]?.message.content, 'plain reply');
        assert.equal(plain.model, upstream.model);
        assertUpstream(upstream.protocol);

        answer('streamed reply here');
        const stream = openai.chat.completions.stream({
          model: upstream.model,
          messages: [{ role: 'user', content: 'hi' }],
          stream_options: { include_usage: true },
        });
        const final = await stream.finalChatCompletion();
        assert.equal(final.choices[0]?.message.content, 'streamed reply here');
        assert.equal(final.usage?.completion_tokens, 5);

        toolCall();
        const tools = await openai.chat.completions
          .stream({
            model: upstream.model,
            messages: [{ role: 'user', content: 'weather in Paris?' }],
            tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER_TOOL_SCHEMA } }],
          })
          .finalChatCompletion();
        const call = tools.choices[0]?.message.tool_calls?.[0];
        assert.equal(call?.type === 'function' ? call.function.name : undefined, 'get_weather');
        assert.deepEqual(JSON.parse(call?.type === 'function' ? call.function.arguments : '{}'), { city: 'Paris' });
        assert.equal(tools.choices[0]?.finish_reason, 'tool_calls');
      });

      test('OpenAI Responses: plain, streamed, function call', async () => {
        answer('responses reply');
        const plain = await openai.responses.create({ model: upstream.model, input: 'hi' });
        assert.equal(plain.output_text, 'responses reply');
        assertUpstream(upstream.protocol === 'openai-chat' ? 'openai-chat' : upstream.protocol);

        answer('streamed responses reply');
        const final = await openai.responses.stream({ model: upstream.model, input: 'hi' }).finalResponse();
        assert.equal(final.output_text, 'streamed responses reply');
        assert.equal(final.usage?.output_tokens, 5);

        toolCall();
        const tools = await openai.responses
          .stream({
            model: upstream.model,
            input: 'weather in Paris?',
            tools: [{ type: 'function', name: 'get_weather', parameters: WEATHER_TOOL_SCHEMA, strict: false }],
          })
          .finalResponse();
        const call = tools.output.find((item) => item.type === 'function_call');
        assert.equal(call?.type === 'function_call' ? call.name : undefined, 'get_weather');
        assert.deepEqual(JSON.parse(call?.type === 'function_call' ? call.arguments : '{}'), { city: 'Paris' });
      });

      test('Anthropic Messages: plain, streamed, tool use', async () => {
        answer('anthropic reply');
        const plain = await anthropic.messages.create({ model: upstream.model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
        assert.deepEqual(
          plain.content.map((block) => (block.type === 'text' ? block.text : block.type)),
          ['anthropic reply'],
        );
        assert.equal(plain.stop_reason, 'end_turn');
        assertUpstream(upstream.protocol);

        answer('streamed anthropic reply');
        const final = await anthropic.messages.stream({ model: upstream.model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
        assert.equal(final.content[0]?.type === 'text' ? final.content[0].text : '', 'streamed anthropic reply');
        assert.equal(final.usage.output_tokens, 5);

        toolCall();
        const tools = await anthropic.messages
          .stream({
            model: upstream.model,
            max_tokens: 100,
            messages: [{ role: 'user', content: 'weather in Paris?' }],
            tools: [{ name: 'get_weather', input_schema: WEATHER_TOOL_SCHEMA as Anthropic.Tool.InputSchema }],
          })
          .finalMessage();
        const use = tools.content.find((block) => block.type === 'tool_use');
        assert.equal(use?.type === 'tool_use' ? use.name : undefined, 'get_weather');
        assert.deepEqual(use?.type === 'tool_use' ? use.input : undefined, { city: 'Paris' });
        assert.equal(tools.stop_reason, 'tool_use');
      });

      test('Gemini generateContent: plain, streamed, function call', async () => {
        answer('gemini reply');
        const plain = await genai.models.generateContent({ model: upstream.model, contents: 'hi' });
        assert.equal(plain.text, 'gemini reply');
        assertUpstream(upstream.protocol);

        answer('streamed gemini reply');
        let text = '';
        let usage: number | undefined;
        for await (const chunk of await genai.models.generateContentStream({ model: upstream.model, contents: 'hi' })) {
          text += chunk.text ?? '';
          usage = chunk.usageMetadata?.totalTokenCount ?? usage;
        }
        assert.equal(text, 'streamed gemini reply');
        assert.equal(usage, 16);

        toolCall();
        const calls = [];
        for await (const chunk of await genai.models.generateContentStream({
          model: upstream.model,
          contents: 'weather in Paris?',
          config: { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: WEATHER_TOOL_SCHEMA }] }] },
        })) {
          calls.push(...(chunk.functionCalls ?? []));
        }
        assert.equal(calls[0]?.name, 'get_weather');
        assert.deepEqual(calls[0]?.args, { city: 'Paris' });
      });
    });
  }
});
