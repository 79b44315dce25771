import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getCodec } from '../protocols/codec-registry.ts';
import { createFixedRuntime } from '../../test/helpers/fixed-runtime.ts';
import { planUpstreamRequest, type PlanInput } from './upstream-plan.ts';

const plan = (overrides: Partial<PlanInput> & Pick<PlanInput, 'clientBody'>) =>
  planUpstreamRequest({
    clientProtocol: 'openai-chat',
    upstreamProtocol: 'openai-chat',
    upstreamCodec: getCodec('openai-chat'),
    stream: false,
    upstreamModel: 'm',
    decodeClientRequest: () => assert.fail('passthrough must not decode'),
    runtime: createFixedRuntime(),
    ...overrides,
  });

test('passthrough forwards the client text untouched when nothing changes', () => {
  const rawBody = '{ "model": "m",  "messages": [], "x_unknown": 1 }';
  const result = plan({ clientBody: JSON.parse(rawBody), rawBody });
  assert.equal(result.passthrough, true);
  assert.equal(result.body, rawBody);
});

test('an OpenAI stream gets usage reporting spliced into the client text', () => {
  const rawBody = '{"model":"m","messages":[],"stream":true}\n';
  const result = plan({ clientBody: JSON.parse(rawBody), rawBody, stream: true });
  assert.deepEqual(JSON.parse(result.body), { model: 'm', messages: [], stream: true, stream_options: { include_usage: true } });
});

test('a mapped model or other stream options fall back to re-serialising', () => {
  const mapped = plan({ clientBody: { model: 'public', messages: [] }, rawBody: '{"model":"public","messages":[]}' });
  assert.deepEqual(JSON.parse(mapped.body), { model: 'm', messages: [] });
  const options = plan({
    clientBody: { model: 'm', stream: true, stream_options: { include_obfuscation: false } },
    rawBody: '{"model":"m","stream":true,"stream_options":{"include_obfuscation":false}}',
    stream: true,
  });
  assert.deepEqual(JSON.parse(options.body).stream_options, { include_obfuscation: false, include_usage: true });
});
