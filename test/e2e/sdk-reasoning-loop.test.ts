import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type ModelMessage } from 'ai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { waitFor } from '../helpers/wait-for.ts';
import type { RecordedRequest } from '../simulator/recorded-request.ts';
import { CLIENT_MODELS, LOOP_CLIENTS, SECRET, TOOL_NAME, type LoopClient } from './sdk-reasoning-clients.ts';

/**
 * The official SDKs (openai chat and responses, @anthropic-ai/sdk, @google/genai) and the Vercel
 * AI SDK providers (@ai-sdk/openai chat and responses, @ai-sdk/anthropic, @ai-sdk/google), each in
 * a two-step tool loop with reasoning on, against every upstream that checks reasoning state in
 * the strict simulator: Anthropic with thinking, Gemini 3 thought signatures, OpenAI Responses
 * with store:false. The model thinks and asks for the tool; the client sends the result back; that
 * turn must be accepted with the upstream's own state (not a degraded fallback) and end in the
 * final answer. Plain and streamed. The matrix is printed at the end.
 */
const ANSWER = `The notes say ${SECRET}.`;

const UPSTREAMS = [
  { name: 'anthropic', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-6', supportsResponses: false },
  { name: 'gemini-3', provider: 'gemini', upstreamModel: 'gemini-3-pro-preview', supportsResponses: false },
  { name: 'openai-responses', provider: 'openai', upstreamModel: 'gpt-5', supportsResponses: true },
] as const;
type Upstream = (typeof UPSTREAMS)[number];

type Json = Record<string, any>;

/** Warnings that mean the upstream did not get its own reasoning state back (README, reasoning table). */
const DEGRADED = [
  'compatibility:thinking_disabled',
  'compatibility:thought_signature',
  'compatibility:reasoning_state',
  'unsupported:reasoning_history',
  'unsupported:reasoning_state',
];

/** `client|upstream|stream` → what the matrix shows. */
const outcomes = new Map<string, string>();

describe('SDK reasoning + tool loops across protocols (strict simulator)', { concurrency: false }, () => {
  let harness: Harness;

  before(async () => {
    harness = await startHarness();
    const models = Object.values(CLIENT_MODELS);
    for (const upstream of UPSTREAMS) {
      await harness.admin('POST', '/groups', { name: `sdk-${upstream.name}` }, 201);
      await harness.addChannel({
        provider: upstream.provider,
        models,
        modelMap: Object.fromEntries(models.map((model) => [model, upstream.upstreamModel])),
        supportsResponses: upstream.supportsResponses,
        groups: [`sdk-${upstream.name}`],
      });
    }
    // The model's side: think and ask for the tool until its result comes back, then answer.
    harness.simulator.onRequest((request) => {
      if (request.endpoint !== 'generate') return;
      if (request.rawBody.includes(SECRET)) {
        harness.simulator.enqueue({ reasoning: { text: 'The tool answered; report it.' }, text: ANSWER });
      } else if (request.rawBody.includes(TOOL_NAME)) {
        harness.simulator.enqueue({
          reasoning: { text: 'I should read notes.txt first.' },
          toolCalls: [{ name: TOOL_NAME, arguments: { file: 'notes.txt' } }],
        });
      }
    });
  });
  after(async () => {
    await harness?.close();
    printMatrix();
  });

  /** The warnings on the usage rows of one loop (its key's rows). */
  const loopWarnings = async (keyId: string, requests: number): Promise<string[]> => {
    let rows: Json[] = [];
    await waitFor(async () => {
      rows = (await harness.admin('GET', `/logs?key=${keyId}&limit=20`)).data;
      return rows.length >= requests;
    }, 'the usage rows of the loop');
    return [...new Set(rows.flatMap((row) => (row.warnings ?? []) as string[]))];
  };

  test('@ai-sdk/openai responses, store on: the earlier answer it refers to by id reaches a non-OpenAI upstream', async () => {
    const key = await harness.addKey({ group: 'sdk-anthropic' });
    const model = createOpenAI({ baseURL: `${harness.url}/v1`, apiKey: key.key }).responses(CLIENT_MODELS.openai);
    const providerOptions = { openai: { reasoningEffort: 'high' } };
    harness.simulator.enqueue({ reasoning: { text: 'Paris, obviously.' }, text: 'The capital of France is Paris.' });
    const first = await generateText({ model, prompt: 'Capital of France?', providerOptions, maxRetries: 0 });
    harness.simulator.enqueue({ text: 'About 2.1 million.' });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Capital of France?' },
      ...first.response.messages,
      { role: 'user', content: 'Its population?' },
    ];
    const second = await generateText({ model, messages, providerOptions, maxRetries: 0 });
    assert.equal(second.text, 'About 2.1 million.');
    const upstream = harness.simulator.lastRequest()!;
    assert.ok(upstream.rawBody.includes('The capital of France is Paris.'), `the earlier answer reached the upstream: ${upstream.rawBody}`);
    assert.equal((upstream.body as Json).messages.at(-2).role, 'assistant');
  });

  for (const stream of [false, true]) {
    for (const client of LOOP_CLIENTS) {
      for (const upstream of UPSTREAMS) {
        const id = `${client.name}|${upstream.name}|${stream}`;
        test(`${client.name} × ${upstream.name}${stream ? ' (streamed)' : ''}`, async () => {
          outcomes.set(id, 'FAIL');
          const key = await harness.addKey({ group: `sdk-${upstream.name}` });
          const since = harness.simulator.requests.length;
          const answer = await client.run({ url: harness.url, key: key.key, stream });
          const requests = harness.simulator.requests.slice(since).filter((request) => request.endpoint === 'generate');
          assert.match(answer, new RegExp(SECRET), `${client.name} reached the final answer`);
          const loop = requests.filter((request) => request.rawBody.includes(SECRET));
          assert.ok(loop.length > 0, `the tool result reached the upstream (${requests.length} requests)`);
          const lane = assertStateCarried(client, upstream, loop[0]!);
          const warnings = await loopWarnings(key.id, requests.length);
          // A Chat Completions upstream cannot take reasoning back: leaving it out is expected there.
          const degraded = warnings.filter(
            (warning) => DEGRADED.includes(warning) && !(lane === 'via Chat Completions' && warning === 'unsupported:reasoning_history'),
          );
          assert.deepEqual(degraded, [], `no degraded turn (warnings: ${warnings.join(', ')})`);
          const recalled = warnings.includes('compatibility:reasoning_state_recalled');
          if (client.name.endsWith('store on') && lane === '') {
            // Its item_reference ids name items of turns the gateway kept: resolved there, not from the cache.
            assert.ok(!recalled && !warnings.includes('unsupported:input.item_reference'), `references resolved (warnings: ${warnings.join(', ')})`);
          }
          outcomes.set(id, ['pass', lane, recalled ? 'state recalled from the tool-call cache' : ''].filter(Boolean).join(', '));
        });
      }
    }
  }
});

/**
 * The upstream got back the reasoning state it issued (not a fallback), and no gateway envelope.
 * Returns a note for the matrix when the path is not the obvious one.
 */
function assertStateCarried(client: LoopClient, upstream: Upstream, request: RecordedRequest): string {
  const body = request.body as Json;
  const text = request.rawBody;
  assert.doesNotMatch(text, /U1lSA/, 'no envelope reaches the upstream');
  const passthrough =
    (client.protocol === 'anthropic-messages' && upstream.name === 'anthropic') ||
    (client.protocol === 'gemini-generate-content' && upstream.name === 'gemini-3') ||
    (client.protocol === 'openai-responses' && upstream.name === 'openai-responses');
  switch (upstream.name) {
    case 'anthropic': {
      assert.equal(request.protocol, 'anthropic-messages');
      assert.match(String(body.thinking?.type), /^(enabled|adaptive)$/, 'thinking stays on');
      const assistant = body.messages.at(-2);
      assert.equal(assistant.role, 'assistant');
      assert.equal(assistant.content[0].type, 'thinking', 'the assistant turn starts with the signed thinking block');
      break;
    }
    case 'gemini-3': {
      assert.equal(request.protocol, 'gemini-generate-content');
      const model = [...body.contents].reverse().find((content: Json) => content.role === 'model');
      const call = model.parts.find((part: Json) => part.functionCall);
      assert.ok(call.thoughtSignature && call.thoughtSignature !== 'skip_thought_signature_validator', "Gemini's own signature is back on the call");
      break;
    }
    case 'openai-responses':
      if (client.protocol === 'openai-chat') {
        // Chat clients keep Chat Completions on an OpenAI channel: OpenAI needs no state back there.
        assert.equal(request.protocol, 'openai-chat');
        return 'via Chat Completions';
      }
      assert.equal(request.protocol, 'openai-responses');
      if (passthrough && body.store !== false) {
        // A client that keeps store on refers OpenAI to the reasoning it stored (the simulator checks the id).
        assert.ok(
          body.input.some((item: Json) => item.type === 'item_reference' || item.type === 'reasoning'),
          'the stored reasoning is referred to',
        );
        return 'passthrough, item_reference';
      }
      assert.equal(body.store, false);
      assert.ok(
        body.input.some((item: Json) => item.type === 'reasoning' && typeof item.encrypted_content === 'string'),
        'encrypted reasoning is back',
      );
      break;
    default: {
      const unreachable: never = upstream;
      throw new Error(`unknown upstream ${JSON.stringify(unreachable)}`);
    }
  }
  return passthrough ? 'passthrough' : '';
}

function printMatrix(): void {
  const lines: string[] = [];
  for (const stream of [false, true]) {
    lines.push('', `| client × upstream${stream ? ' (streamed)' : ''} | ${UPSTREAMS.map((upstream) => upstream.name).join(' | ')} |`);
    lines.push(`|---|${UPSTREAMS.map(() => '---').join('|')}|`);
    for (const client of LOOP_CLIENTS) {
      lines.push(`| ${client.name} | ${UPSTREAMS.map((upstream) => outcomes.get(`${client.name}|${upstream.name}|${stream}`) ?? 'not run').join(' | ')} |`);
    }
  }
  console.log(lines.join('\n'));
}
