import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProtocolId } from '../../src/protocols/protocol-codec.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { firstCall, readTurn, secondCall, stripReasoning, tamperReasoning, TOOL_OUTPUT, type AssistantTurn, type ClientCall } from './reasoning-loop-client.ts';

/**
 * The multi-turn reasoning + tool matrix against the strict simulator: every client protocol ×
 * every upstream kind, streamed and not. Turn one: the model thinks and calls a tool. Turn two
 * carries the assistant turn back exactly as that protocol's clients keep it, plus the tool's
 * result; the simulator refuses it unless the upstream gets back the reasoning state it issued
 * (Anthropic signed thinking first, Gemini 3's thought signature on the call, OpenAI's
 * encrypted reasoning with store:false), so a 200 with no degradation warning is the proof.
 */
const CLIENTS: ProtocolId[] = ['anthropic-messages', 'gemini-generate-content', 'openai-responses', 'openai-chat'];
const UPSTREAMS = [
  { kind: 'anthropic-messages', provider: 'anthropic', model: 'loop-claude', upstreamModel: 'claude-sonnet-4-6', supportsResponses: false },
  { kind: 'gemini-generate-content', provider: 'gemini', model: 'loop-gemini', upstreamModel: 'gemini-3-pro-preview', supportsResponses: false },
  { kind: 'openai-responses', provider: 'openai', model: 'loop-gpt', upstreamModel: 'gpt-5', supportsResponses: true },
  { kind: 'openai-chat', provider: 'openai', model: 'loop-chat', upstreamModel: 'gpt-4o', supportsResponses: false },
  // Claude on Bedrock: signed reasoningContent, the same rules as Anthropic's API (reasoning-rules.ts).
  {
    kind: 'bedrock-converse',
    provider: 'bedrock',
    model: 'loop-bedrock',
    upstreamModel: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    supportsResponses: false,
  },
] as const;
const BEDROCK_API_KEY = 'ABSKUmVhc29uaW5nTG9vcEJlZHJvY2tLZXk=';
/** Upstreams where Claude signs its thinking; the thinking-on and thinking-off checks apply to both. */
const CLAUDE_KINDS: ReadonlySet<string> = new Set(['anthropic-messages', 'bedrock-converse']);
const thinkingOf = (kind: string, body: Record<string, any>) => (kind === 'bedrock-converse' ? body.additionalModelRequestFields?.thinking : body.thinking);
/**
 * The wire the gateway speaks upstream for a client: an Anthropic client reaches Claude on
 * Bedrock through InvokeModel in Anthropic's own body (the native lane), every other client
 * through Converse.
 */
const wireFor = (client: ProtocolId, upstream: (typeof UPSTREAMS)[number]): string =>
  upstream.kind === 'bedrock-converse' && client === 'anthropic-messages' ? 'anthropic-messages' : upstream.kind;

const DEGRADED = /thinking_disabled|thought_signature|reasoning_state|reasoning_history/;
const FINAL = 'notes.txt says hello.';

function reaches(client: ProtocolId, upstream: (typeof UPSTREAMS)[number]): boolean {
  // Chat clients keep their own lane on an OpenAI channel; Responses upstreams serve the rest.
  return !(upstream.kind === 'openai-responses' && client === 'openai-chat');
}

describe('reasoning + tool loop across every protocol pair (strict simulator)', { concurrency: false }, () => {
  let harness: Harness;
  let key: string;
  let otherKey: string;

  before(async () => {
    harness = await startHarness({}, { clouds: { bedrock: { apiKeys: [BEDROCK_API_KEY] } } });
    for (const upstream of UPSTREAMS) {
      await harness.addChannel({
        provider: upstream.provider,
        models: [upstream.model],
        modelMap: { [upstream.model]: upstream.upstreamModel },
        supportsResponses: upstream.supportsResponses,
        ...(upstream.provider === 'bedrock' ? { region: 'us-east-1', apiKey: BEDROCK_API_KEY } : {}),
      });
    }
    ({ key } = await harness.addKey());
    ({ key: otherKey } = await harness.addKey());
  });
  after(async () => {
    await harness?.close();
  });

  const send = async (call: ClientCall) => {
    const response = await fetch(`${harness.url}${call.path}`, { method: 'POST', headers: call.headers, body: JSON.stringify(call.body) });
    return { status: response.status, text: await response.text(), warnings: response.headers.get('x-switchyard-warnings') ?? '' };
  };

  const firstTurn = async (client: ProtocolId, model: string, stream: boolean, apiKey = key): Promise<AssistantTurn> => {
    harness.simulator.enqueue({
      reasoning: { text: 'The answer is in the file; read it first.' },
      toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }],
    });
    const first = await send(firstCall(client, model, stream, apiKey));
    assert.equal(first.status, 200, `turn one: ${first.text}`);
    const turn = readTurn(client, stream, first.text);
    assert.equal(turn.callName, 'read_file', `turn one should call the tool: ${first.text}`);
    // Gemini upstreams usually leave function call ids out; Gemini clients then match by name.
    if (!(client === 'gemini-generate-content' && model === 'loop-gemini')) assert.notEqual(turn.callId, '');
    return turn;
  };
  const secondTurn = async (client: ProtocolId, model: string, stream: boolean, turn: AssistantTurn, apiKey = key) => {
    harness.simulator.enqueue({ reasoning: { text: 'The tool answered.' }, text: FINAL });
    const second = await send(secondCall(client, model, stream, apiKey, turn));
    const upstreamBody = harness.simulator.lastRequest()?.body as Record<string, any>;
    return { ...second, upstreamBody };
  };

  for (const upstream of UPSTREAMS) {
    for (const client of CLIENTS) {
      if (!reaches(client, upstream)) continue;
      for (const stream of [false, true]) {
        const name = `${client} → ${upstream.kind}${stream ? ' (stream)' : ''}`;
        test(`${name}: the second turn is accepted with reasoning intact`, async () => {
          const turn = await firstTurn(client, upstream.model, stream);
          const second = await secondTurn(client, upstream.model, stream, turn);
          assert.equal(second.status, 200, `turn two refused: ${second.text}`);
          // A Chat upstream has no reasoning slot at all: dropping earlier reasoning is its documented loss.
          assert.doesNotMatch(
            second.warnings.replace(upstream.kind === 'openai-chat' ? 'unsupported:reasoning_history' : '', ''),
            DEGRADED,
            'nothing degraded',
          );
          assert.match(readTurn(client, stream, second.text).text, /notes\.txt says hello/);
          if (CLAUDE_KINDS.has(upstream.kind)) {
            assert.equal(thinkingOf(wireFor(client, upstream), second.upstreamBody)?.type, 'enabled', 'thinking stays on');
          }
          if (upstream.kind === 'openai-responses') {
            assert.ok(second.upstreamBody.input.some((item: any) => item.type === 'reasoning' && typeof item.encrypted_content === 'string'));
          }
        });
      }
    }
  }

  // Recovery and degradation, on the streamed lane (the harder one) and the plain one.
  for (const upstream of UPSTREAMS.filter((candidate) => candidate.kind !== 'openai-chat')) {
    for (const client of CLIENTS) {
      if (client === wireFor(client, upstream) || !reaches(client, upstream)) continue;
      const stream = client.length % 2 === 0;
      test(`${client} → ${upstream.kind}: a client that drops the reasoning state is rescued by the tool-call cache`, async () => {
        const turn = await firstTurn(client, upstream.model, stream);
        const second = await secondTurn(client, upstream.model, stream, stripReasoning(client, turn));
        assert.equal(second.status, 200, second.text);
        assert.match(second.warnings, /reasoning_state_recalled/);
        assert.doesNotMatch(second.warnings, /thinking_disabled|thought_signature/);
      });

      test(`${client} → ${upstream.kind}: nothing to recover degrades instead of failing, with a warning`, async () => {
        // Another key cannot see this key's cache: the state is simply gone.
        const turn = await firstTurn(client, upstream.model, stream);
        const second = await secondTurn(client, upstream.model, stream, stripReasoning(client, turn), otherKey);
        assert.equal(second.status, 200, second.text);
        assert.doesNotMatch(second.warnings, /reasoning_state_recalled/);
        if (CLAUDE_KINDS.has(upstream.kind)) {
          assert.match(second.warnings, /compatibility:thinking_disabled/);
          assert.equal(thinkingOf(upstream.kind, second.upstreamBody), undefined);
        }
        if (upstream.kind === 'gemini-generate-content') assert.match(second.warnings, /compatibility:thought_signature/);
      });

      test(`${client} → ${upstream.kind}: a forged envelope is dropped, never forwarded`, async () => {
        const turn = await firstTurn(client, upstream.model, stream);
        const second = await secondTurn(client, upstream.model, stream, tamperReasoning(turn), otherKey);
        assert.equal(second.status, 200, second.text);
        assert.match(second.warnings, /compatibility:reasoning_state/);
        assert.doesNotMatch(JSON.stringify(second.upstreamBody), /U1lSA/, 'no envelope reaches the upstream');
      });
    }
  }

  test('an envelope issued for one channel is not opened for another provider', async () => {
    const turn = await firstTurn('openai-responses', 'loop-claude', false);
    const second = await secondTurn('openai-responses', 'loop-gemini', false, turn);
    assert.equal(second.status, 200, second.text);
    assert.match(second.warnings, /compatibility:reasoning_state/);
    assert.doesNotMatch(JSON.stringify(second.upstreamBody), /U1lSA|EqQB/, 'neither the envelope nor the Anthropic signature reaches Gemini');
  });

  test('the tool output reaches the upstream in the second turn', async () => {
    const turn = await firstTurn('gemini-generate-content', 'loop-claude', true);
    const second = await secondTurn('gemini-generate-content', 'loop-claude', true, turn);
    assert.equal(second.status, 200, second.text);
    assert.match(JSON.stringify(second.upstreamBody.messages.at(-1)), new RegExp(TOOL_OUTPUT));
    assert.equal(second.upstreamBody.messages.at(-2).content[0].type, 'thinking');
  });
});
