import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { createGeminiUsageTap } from './create-gemini-usage-tap.ts';
import { decodeGeminiError } from './decode-gemini-error.ts';
import { encodeGeminiError } from './encode-gemini-error.ts';
import { encodeGeminiModel, encodeGeminiModelList } from './encode-gemini-model-list.ts';
import { geminiGenerateContentCodec } from './index.ts';

describe('encodeGeminiError', () => {
  test('Gemini shape with google.rpc status, ErrorInfo reason and the request id', () => {
    assert.deepEqual(encodeGeminiError(invalidRequest('`contents` must be an array.', 'contents'), 'req-1'), {
      status: 400,
      body: {
        error: {
          code: 400,
          message: '`contents` must be an array. (request id: req-1)',
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'INVALID_REQUEST', domain: 'switchyard' }],
        },
      },
    });
  });

  test('status names per HTTP status', () => {
    const cases = [
      ['invalid_api_key', 401, 'UNAUTHENTICATED'],
      ['key_disabled', 403, 'PERMISSION_DENIED'],
      ['model_not_found', 404, 'NOT_FOUND'],
      ['rate_limited', 429, 'RESOURCE_EXHAUSTED'],
      ['internal_error', 500, 'INTERNAL'],
      ['upstream_error', 502, 'UNAVAILABLE'],
      ['no_available_channel', 503, 'UNAVAILABLE'],
      ['upstream_timeout', 504, 'DEADLINE_EXCEEDED'],
    ] as const;
    for (const [code, status, name] of cases) {
      const { status: got, body } = encodeGeminiError(new GatewayError(code, 'x'), 'r');
      assert.equal(got, status, code);
      assert.equal((body as { error: { status: string } }).error.status, name, code);
    }
  });
});

describe('decodeGeminiError', () => {
  test('reads the Gemini shape, arrays, JSON text and junk without throwing', () => {
    const body = { error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } };
    assert.deepEqual(decodeGeminiError(400, body), { message: 'API key not valid.', type: 'API_KEY_INVALID' });
    assert.deepEqual(decodeGeminiError(429, [{ error: { message: 'quota', status: 'RESOURCE_EXHAUSTED' } }]), {
      message: 'quota',
      type: 'RESOURCE_EXHAUSTED',
    });
    assert.deepEqual(decodeGeminiError(500, JSON.stringify(body)).message, 'API key not valid.');
    assert.deepEqual(decodeGeminiError(502, '<html>bad gateway</html>'), { message: '<html>bad gateway</html>' });
    for (const junk of [undefined, null, 42, '', {}, { error: 'x' }, [null]]) {
      assert.equal(typeof decodeGeminiError(500, junk).message, 'string');
    }
  });
});

describe('createGeminiUsageTap', () => {
  test('keeps only the last usageMetadata and parses it on demand', () => {
    const tap = createGeminiUsageTap();
    assert.equal(tap.usage(), undefined);
    tap.observe({ data: '{"candidates":[],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":1,"totalTokenCount":6}}' });
    tap.observe({ data: '{"candidates":[{"content":{"parts":[{"text":"no usage here"}]}}]}' });
    tap.observe({
      data: '{"candidates":[],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":9,"thoughtsTokenCount":4,"cachedContentTokenCount":2,"totalTokenCount":18}}',
    });
    assert.deepEqual(tap.usage(), { inputTokens: 5, outputTokens: 13, reasoningTokens: 4, cacheReadTokens: 2 });
    tap.observe({ data: '{"usageMetadata": broken' });
    assert.equal(tap.usage(), undefined);
  });
});

describe('model list', () => {
  test('one model in the v1beta shape', () => {
    assert.deepEqual(encodeGeminiModel('models/gemini-2.5-flash'), {
      name: 'models/gemini-2.5-flash',
      version: '001',
      displayName: 'gemini-2.5-flash',
      description: 'gemini-2.5-flash, served by Switchyard.',
      inputTokenLimit: 1_048_576,
      outputTokenLimit: 65_536,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
    });
  });

  test('pages with nextPageToken until the last page', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const first = encodeGeminiModelList(ids, { pageSize: 2 });
    assert.deepEqual(
      first.models.map((model) => model.name),
      ['models/a', 'models/b'],
    );
    assert.equal(first.nextPageToken, '2');
    const last = encodeGeminiModelList(ids, { pageSize: 2, pageToken: '4' });
    assert.deepEqual(
      last.models.map((model) => model.name),
      ['models/e'],
    );
    assert.equal('nextPageToken' in last, false);
    assert.equal(encodeGeminiModelList(ids).models.length, 5);
    assert.throws(
      () => encodeGeminiModelList(ids, { pageToken: 'zzz' }),
      (error: unknown) => error instanceof GatewayError && error.param === 'pageToken',
    );
  });
});

test('the codec object wires every operation', () => {
  assert.equal(geminiGenerateContentCodec.id, 'gemini-generate-content');
  const { passthrough, ...operations } = geminiGenerateContentCodec;
  for (const value of Object.values(operations)) assert.ok(typeof value === 'function' || typeof value === 'string');
  assert.equal(typeof passthrough.upstreamBody, 'function');
  assert.equal(typeof passthrough.openStream, 'function');
});
