import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bedrockChannel } from './channels/bedrock-channel.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import { classifyFailure } from './routing/classify-failure.ts';
import type { UpstreamResponse } from './channels/upstream-client.ts';
import { readUpstreamError } from './read-upstream-error.ts';

const RETRY = new Set([408, 429, 500, 502, 503, 504]);

function reply(status: number, body: unknown, headers: Record<string, string>): UpstreamResponse {
  const text = JSON.stringify(body);
  return { statusCode: status, headers, body: { text: async () => text } } as unknown as UpstreamResponse;
}

const awsHeader = (type: string) => ({ 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });

test('Bedrock: the error type comes from x-amzn-errortype, for Converse and InvokeModel alike', async () => {
  for (const protocol of ['bedrock-converse', 'anthropic-messages'] as const) {
    const error = await readUpstreamError(
      reply(429, { message: 'Too many requests, please wait before trying again.' }, awsHeader('ThrottlingException')),
      getCodec(protocol),
      [],
      bedrockChannel,
    );
    assert.equal(error.upstreamType, 'ThrottlingException', protocol);
    assert.deepEqual(error.upstreamCodes, ['ThrottlingException'], protocol);
    assert.match(error.message, /Too many requests/);
  }
});

test('Bedrock: a refused credential (403 UnrecognizedClientException) takes the channel out; AccessDenied stays the request', async () => {
  const codec = getCodec('bedrock-converse');
  const revoked = await readUpstreamError(
    reply(403, { message: 'The security token included in the request is invalid.' }, awsHeader('UnrecognizedClientException')),
    codec,
    [],
    bedrockChannel,
  );
  assert.equal(classifyFailure(revoked, 403, RETRY).failureClass, 'broken');
  const denied = await readUpstreamError(
    reply(403, { message: "You don't have access to the model with the specified model ID." }, awsHeader('AccessDeniedException')),
    codec,
    [],
    bedrockChannel,
  );
  assert.equal(classifyFailure(denied, 403, RETRY).failureClass, 'request');
});

test('Bedrock: words in the message never make a type, and a malformed header is ignored', async () => {
  const codec = getCodec('bedrock-converse');
  const quoted = await readUpstreamError(
    reply(400, { message: 'UnrecognizedClientException: extraneous key [billing]' }, awsHeader('ValidationException')),
    codec,
    [],
    bedrockChannel,
  );
  assert.equal(quoted.upstreamType, 'ValidationException');
  assert.equal(classifyFailure(quoted, 400, RETRY).failureClass, 'request');
  const junk = await readUpstreamError(reply(400, { message: 'bad' }, { 'x-amzn-errortype': 'not a type: at all' }), codec, [], bedrockChannel);
  assert.equal(junk.upstreamType, undefined);
});

test('a kind without a header type keeps the body type', async () => {
  const error = await readUpstreamError(
    reply(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }, awsHeader('ThrottlingException')),
    getCodec('anthropic-messages'),
  );
  assert.equal(error.upstreamType, 'authentication_error');
});
