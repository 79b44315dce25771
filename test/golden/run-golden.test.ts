import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuntimeContext } from '../../src/core/runtime-context.ts';
import type { ProtocolId, UpstreamProtocolId } from '../../src/protocols/protocol-codec.ts';
import { createFixedRuntime } from '../helpers/fixed-runtime.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { bedrockReplyHeaders, checkBedrockRequest } from './bedrock-upstream-check.ts';
import { RECORDED_ENCODING, type RecordedFormat } from './cases/recorded-reply.ts';
import { startFakeUpstream, type FakeUpstream, type ScriptedReply } from './fake-upstream.ts';
import { goldenUpdateMode } from './golden-update-mode.ts';
import { GOLDEN_BEDROCK_API_KEY, GOLDEN_PAIRS, UPSTREAMS, type CaseFile, type GoldenPair } from './golden-pairs.ts';

const ROOT = dirname(fileURLToPath(import.meta.url));
// Throws (failing this file) when UPDATE_GOLDEN=1 is set under CI.
const UPDATE = goldenUpdateMode(process.env);

/** One fixed runtime per case, so ids and clocks do not depend on which cases ran before. */
function createResettableRuntime(): { runtime: RuntimeContext; reset(): void } {
  let current = createFixedRuntime();
  return {
    runtime: { now: () => current.now(), generateId: (prefix) => current.generateId(prefix), random: () => current.random() },
    reset: () => {
      current = createFixedRuntime();
    },
  };
}

function clientCall(protocol: ProtocolId, model: string, stream: boolean, key: string): { path: string; headers: Record<string, string> } {
  const json = { 'content-type': 'application/json' };
  switch (protocol) {
    case 'openai-chat':
      return { path: '/v1/chat/completions', headers: { ...json, authorization: `Bearer ${key}` } };
    case 'openai-responses':
      return { path: '/v1/responses', headers: { ...json, authorization: `Bearer ${key}` } };
    case 'anthropic-messages':
      return { path: '/v1/messages', headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' } };
    case 'gemini-generate-content':
      return {
        path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers: { ...json, 'x-goog-api-key': key },
      };
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

function expectedUpstreamPath(protocol: UpstreamProtocolId, stream: boolean): string {
  switch (protocol) {
    case 'openai-chat':
      return '/v1/chat/completions';
    case 'openai-responses':
      return '/v1/responses';
    case 'anthropic-messages':
      return '/v1/messages';
    case 'gemini-generate-content':
      return `/v1beta/models/${UPSTREAMS[protocol].upstreamModel}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
    case 'bedrock-converse':
      return `/model/${encodeURIComponent(UPSTREAMS[protocol].upstreamModel)}/${stream ? 'converse-stream' : 'converse'}`;
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
/** Reasoning envelopes are sealed under each run's gateway secret and channel id: compared by shape. */
const maskEnvelopes = (text: string) => text.replace(/U1lSA[A-Za-z0-9+/=]*/g, '<switchyard-reasoning-envelope>');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const RECORDED_FORMATS: RecordedFormat[] = ['json', 'sse', 'eventstream'];

/** The recorded reply as the real upstream would send it, with what it checks first. */
function scriptReply(upstream: UpstreamProtocolId, status: number, format: RecordedFormat, body: Buffer, stream: boolean): ScriptedReply {
  if (upstream === 'bedrock-converse') {
    const modelId = UPSTREAMS[upstream].upstreamModel;
    return {
      status,
      format,
      body,
      headers: bedrockReplyHeaders(status),
      check: (request) => checkBedrockRequest(request, { modelId, stream, apiKey: GOLDEN_BEDROCK_API_KEY }),
    };
  }
  return { status, format, body, ...(status === 429 ? { headers: { 'retry-after': '7' } } : {}) };
}

function listCases(pair: GoldenPair): string[] {
  const directory = join(ROOT, pair.folder);
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

describe('golden matrix', () => {
  let harness: Harness;
  let upstream: FakeUpstream;
  let key: string;
  let channelIds: string[] = [];
  let channelsHealthy = false;
  let generation = 0;
  const clock = createResettableRuntime();

  /**
   * Fresh channels after any case that failed upstream: channel health is per channel, and with
   * a frozen clock a 429's retry-after (or the error rate) would keep the circuit open forever.
   */
  const ensureHealthyChannels = async () => {
    if (channelsHealthy) return;
    for (const id of channelIds) await harness.admin('DELETE', `/channels/${id}`);
    channelIds = [];
    generation += 1;
    for (const [protocol, spec] of Object.entries(UPSTREAMS)) {
      const created = await harness.addChannel({
        name: `golden-${generation}-${protocol}`,
        provider: spec.provider,
        baseUrl: spec.provider === 'openai' ? `${upstream.url}/v1` : upstream.url,
        models: [spec.publicModel],
        ...(spec.publicModel === spec.upstreamModel ? {} : { modelMap: { [spec.publicModel]: spec.upstreamModel } }),
        supportsResponses: spec.supportsResponses,
        ...(spec.provider === 'bedrock' ? { region: 'us-east-1', apiKey: GOLDEN_BEDROCK_API_KEY } : {}),
      });
      channelIds.push(created.id);
    }
    channelsHealthy = true;
  };

  before(async () => {
    upstream = await startFakeUpstream();
    harness = await startHarness({ runtime: clock.runtime });
    ({ key } = await harness.addKey());
  });
  after(async () => {
    await harness?.close();
    await upstream?.close();
  });

  for (const pair of GOLDEN_PAIRS) {
    describe(pair.folder, () => {
      const cases = listCases(pair);
      // A pair whose folder went missing would otherwise pass by running nothing.
      if (cases.length === 0 && !UPDATE) {
        test('has recorded cases', () => assert.fail(`no golden cases under test/golden/${pair.folder}; record them with UPDATE_GOLDEN=1`));
      }
      for (const name of cases) {
        test(name, async () => {
          const directory = join(ROOT, pair.folder, name);
          const caseFile: CaseFile = readJson(join(directory, 'case.json'));
          const clientRequest = readFileSync(join(directory, 'client-request.json'), 'utf8');
          const format = RECORDED_FORMATS.find((candidate) => existsSync(join(directory, `upstream-response.${candidate}`)));
          assert.ok(format, `no upstream-response.{${RECORDED_FORMATS.join(',')}} in ${pair.folder}/${name}`);
          const recorded = readFileSync(join(directory, `upstream-response.${format}`));
          const status = caseFile.status ?? 200;
          const scripted = scriptReply(pair.upstream, status, format, recorded, caseFile.stream);
          upstream.answerWith(scripted);
          await ensureHealthyChannels();
          if (status !== 200 || name.startsWith('upstream-error')) channelsHealthy = false;

          clock.reset();
          const call = clientCall(pair.client, UPSTREAMS[pair.upstream].publicModel, caseFile.stream, key);
          const response = await fetch(`${harness.url}${call.path}`, { method: 'POST', headers: call.headers, body: clientRequest });
          const clientBytes = await response.text();
          const sent = upstream.takeLastRequest();
          assert.ok(sent, `the gateway never called the upstream; it answered ${response.status} ${clientBytes}`);
          assert.equal(sent.url, expectedUpstreamPath(pair.upstream, caseFile.stream));
          // Checked before update mode, so a request the upstream would refuse is never recorded as golden.
          assert.equal(sent.refusal, undefined, `the upstream refused the gateway's request: ${sent.refusal?.body} (sent ${sent.body})`);

          const warnings = response.headers.get('x-switchyard-warnings')?.split(', ') ?? [];
          const streamed = caseFile.stream && response.status === 200;
          const expectedClientFile = join(directory, streamed ? 'client-response.sse' : 'client-response.json');
          const clientText = maskEnvelopes(streamed ? clientBytes : pretty(JSON.parse(clientBytes)));

          if (UPDATE) {
            writeFileSync(join(directory, 'upstream-request.json'), pretty(JSON.parse(sent.body)));
            for (const extension of ['json', 'sse']) rmSync(join(directory, `client-response.${extension}`), { force: true });
            writeFileSync(expectedClientFile, clientText);
            const { expectWarnings: _previous, ...rest } = caseFile;
            writeFileSync(join(directory, 'case.json'), pretty(warnings.length > 0 ? { ...rest, expectWarnings: warnings } : rest));
            return;
          }

          assert.deepEqual(JSON.parse(sent.body), readJson(join(directory, 'upstream-request.json')), 'upstream request');
          assert.equal(response.status, status, `client status (body: ${clientBytes})`);
          assert.match(response.headers.get('content-type') ?? '', streamed ? /^text\/event-stream/ : /^application\/json/);
          assert.equal(clientText, readFileSync(expectedClientFile, 'utf8'), 'client response');
          assert.deepEqual(warnings, caseFile.expectWarnings ?? [], 'x-switchyard-warnings');
          if (scripted.headers?.['retry-after']) assert.equal(response.headers.get('retry-after'), scripted.headers['retry-after'], 'retry-after survives');

          // The passthrough lane hands the upstream's bytes over untouched (only OpenAI's
          // forced usage chunk is hidden from a client that did not ask for it).
          const hidesUsage = pair.client === 'openai-chat' && caseFile.stream && !clientRequest.includes('"include_usage"');
          if (pair.client === pair.upstream && status === 200 && !hidesUsage)
            assert.equal(clientBytes, recorded.toString(RECORDED_ENCODING[format]), 'passthrough bytes');
        });
      }
    });
  }
});
