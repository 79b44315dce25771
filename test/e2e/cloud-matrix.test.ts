import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { clearServiceAccountTokens } from '../../src/relay/channels/auth/google-service-account-token.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { VERTEX_TOKEN_PATH } from '../simulator/cloud-front.ts';

/**
 * Every client protocol × every cloud channel kind (Azure OpenAI, Vertex AI Gemini and Claude,
 * Bedrock Converse with SigV4 and with an API key): plain, streamed and tool calls through the
 * real SDKs, against a simulator that enforces each cloud's own authentication.
 */
const AZURE_KEY = 'azure-resource-key-0123456789abcdef';
const AWS_ACCESS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const BEDROCK_API_KEY = 'ABSKQmVkcm9ja0FQSUtleS1zaW11bGF0b3I=';
const SERVICE_ACCOUNT_EMAIL = 'switchyard@sim-project.iam.gserviceaccount.com';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC_PEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();

// `anthropicProtocol`: what an Anthropic client reaches (Claude on Bedrock: InvokeModel with Anthropic's body).
const UPSTREAMS: ReadonlyArray<{ name: string; model: string; protocol: string; responsesProtocol: string; anthropicProtocol?: string }> = [
  { name: 'azure', model: 'cloud-azure', protocol: 'openai-chat', responsesProtocol: 'openai-responses' },
  { name: 'vertex gemini', model: 'cloud-vertex-gemini', protocol: 'gemini-generate-content', responsesProtocol: 'gemini-generate-content' },
  { name: 'vertex claude', model: 'cloud-vertex-claude', protocol: 'anthropic-messages', responsesProtocol: 'anthropic-messages' },
  {
    name: 'bedrock sigv4',
    model: 'cloud-bedrock',
    protocol: 'bedrock-converse',
    responsesProtocol: 'bedrock-converse',
    anthropicProtocol: 'anthropic-messages',
  },
  { name: 'bedrock api key', model: 'cloud-bedrock-key', protocol: 'bedrock-converse', responsesProtocol: 'bedrock-converse' },
];

const WEATHER_TOOL_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};

describe('cloud channel kinds through the real SDKs', () => {
  let harness: Harness;
  let key: string;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let genai: GoogleGenAI;

  before(async () => {
    clearServiceAccountTokens();
    harness = await startHarness(
      {},
      {
        clouds: {
          azure: { apiKey: AZURE_KEY },
          vertex: { serviceAccounts: { [SERVICE_ACCOUNT_EMAIL]: PUBLIC_PEM } },
          bedrock: { credentials: { [AWS_ACCESS_KEY]: AWS_SECRET }, apiKeys: [BEDROCK_API_KEY] },
        },
      },
    );
    const sim = harness.simulator.url;
    const serviceAccount = JSON.stringify({
      type: 'service_account',
      project_id: 'sim-project',
      private_key_id: 'key-1',
      private_key: PRIVATE_PEM,
      client_email: SERVICE_ACCOUNT_EMAIL,
      token_uri: `${sim}${VERTEX_TOKEN_PATH}`,
    });
    await harness.addChannel({ provider: 'azure', baseUrl: sim, apiKey: AZURE_KEY, models: ['cloud-azure'], modelMap: { 'cloud-azure': 'gpt-4o-deployment' } });
    await harness.addChannel({
      provider: 'vertex',
      baseUrl: sim,
      region: 'us-east5',
      project: 'sim-project',
      apiKey: serviceAccount,
      models: ['cloud-vertex-gemini', 'cloud-vertex-claude'],
      modelMap: { 'cloud-vertex-gemini': 'gemini-2.5-flash', 'cloud-vertex-claude': 'claude-sonnet-4-5@20250929' },
    });
    await harness.addChannel({
      provider: 'bedrock',
      baseUrl: sim,
      region: 'us-east-1',
      apiKey: `${AWS_ACCESS_KEY}:${AWS_SECRET}`,
      models: ['cloud-bedrock'],
      modelMap: { 'cloud-bedrock': 'anthropic.claude-3-5-sonnet-20240620-v1:0' },
    });
    await harness.addChannel({
      provider: 'bedrock',
      baseUrl: sim,
      region: 'us-west-2',
      apiKey: BEDROCK_API_KEY,
      models: ['cloud-bedrock-key'],
      modelMap: { 'cloud-bedrock-key': 'us.amazon.nova-pro-v1:0' },
    });
    ({ key } = await harness.addKey());
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: harness.url, apiKey: key, maxRetries: 0 });
    genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: harness.url, apiVersion: 'v1beta' } });
  });
  after(() => harness.close());

  const answer = (text: string) => harness.simulator.enqueue({ text, usage: { input: 11, output: 5 } });
  const toolCall = () =>
    harness.simulator.enqueue({ toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { input: 20, output: 8 } });
  const assertUpstream = (protocol: string) => {
    const last = harness.simulator.lastRequest();
    assert.equal(last?.protocol, protocol, `reached ${last?.method} ${last?.path}`);
  };

  for (const upstream of UPSTREAMS) {
    describe(`to a ${upstream.name} channel`, () => {
      test('OpenAI chat: plain, streamed, tool call', async () => {
        answer('plain reply');
        const plain = await openai.chat.completions.create({ model: upstream.model, messages: [{ role: 'user', content: 'hi' }] });
        assert.equal(plain.choices[0]?.message.content, 'plain reply');
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
        assert.equal(final.usage?.prompt_tokens, 11);

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

        // The tool result goes back: a second turn with the call and its result.
        answer('It is sunny.');
        const second = await openai.chat.completions.create({
          model: upstream.model,
          messages: [
            { role: 'user', content: 'weather in Paris?' },
            {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
            },
            { role: 'tool', tool_call_id: 'call_w1', content: 'sunny, 21 °C' },
          ],
          tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER_TOOL_SCHEMA } }],
        });
        assert.equal(second.choices[0]?.message.content, 'It is sunny.');
      });

      test('OpenAI Responses: plain, streamed, function call', async () => {
        answer('responses reply');
        const plain = await openai.responses.create({ model: upstream.model, input: 'hi' });
        assert.equal(plain.output_text, 'responses reply');
        assertUpstream(upstream.responsesProtocol);

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
        assertUpstream(upstream.anthropicProtocol ?? upstream.protocol);

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

  test('each cloud saw its own paths and credentials', () => {
    const requests = harness.simulator.requests;
    const azure = requests.find((request) => request.path.startsWith('/openai/deployments/'));
    assert.equal(azure?.path, '/openai/deployments/gpt-4o-deployment/chat/completions');
    assert.equal(azure?.query['api-version'], '2024-10-21');
    assert.equal(azure?.headers['api-key'], AZURE_KEY);
    assert.equal(azure?.headers.authorization, undefined);
    const vertexClaude = requests.find((request) => request.path.includes('/publishers/anthropic/'));
    assert.match(
      vertexClaude?.path ?? '',
      /^\/v1\/projects\/sim-project\/locations\/us-east5\/publishers\/anthropic\/models\/claude-sonnet-4-5@20250929:(stream)?[rR]awPredict$/,
    );
    assert.equal((vertexClaude?.body as Record<string, unknown>).anthropic_version, 'vertex-2023-10-16');
    const bedrock = requests.find((request) => request.path.startsWith('/model/anthropic.'));
    assert.match(bedrock?.headers.authorization ?? '', /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
    // One token minted for the whole run: cached until shortly before it expires.
    assert.equal(harness.simulator.issuedTokens(), 1);
  });
});
