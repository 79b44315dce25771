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

test('a same-protocol attempt is passthrough: the codec’s lane writes the body, nothing is decoded', () => {
  const rawBody = '{ "model": "m",  "messages": [], "x_unknown": 1 }';
  const result = plan({ clientBody: JSON.parse(rawBody), rawBody });
  assert.equal(result.passthrough, true);
  assert.equal(result.body, rawBody);
});

test('a cross-protocol attempt decodes the client request once and encodes it for the upstream', () => {
  let decodes = 0;
  const clientBody = { model: 'public', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 };
  const decoded = getCodec('openai-chat').decodeRequest({ body: clientBody }, createFixedRuntime());
  const result = plan({
    clientBody,
    upstreamProtocol: 'anthropic-messages',
    upstreamCodec: getCodec('anthropic-messages'),
    upstreamModel: 'claude-x',
    decodeClientRequest: () => {
      decodes += 1;
      return { request: decoded.value, warnings: decoded.warnings };
    },
  });
  assert.equal(decodes, 1);
  assert.equal(result.passthrough, false);
  assert.deepEqual(JSON.parse(result.body), {
    model: 'claude-x',
    max_tokens: 5,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    stream: false,
  });
});
