import assert from 'node:assert/strict';
import { test } from 'node:test';
import { credentialStyleOf } from '../protocols/codec-registry.ts';
import { CLIENT_PROTOCOL_IDS } from '../protocols/protocol-codec.ts';
import { expectedCredential, extractApiKey } from './extract-api-key.ts';

test('each client protocol names where its clients carry the key (the codec field), in one place', () => {
  const styles = Object.fromEntries(CLIENT_PROTOCOL_IDS.map((protocol) => [protocol, credentialStyleOf(protocol)]));
  assert.deepEqual(styles, {
    'openai-chat': 'bearer',
    'openai-responses': 'bearer',
    'anthropic-messages': 'anthropic',
    'gemini-generate-content': 'gemini',
  });
});

test("a key is read from its style's own header first, then Bearer; another family's header is not read", () => {
  const bearer = { authorization: 'Bearer sk-b' };
  assert.equal(extractApiKey('bearer', { ...bearer, 'x-api-key': 'sk-a' }, {}), 'sk-b');
  assert.equal(extractApiKey('bearer', { 'x-api-key': 'sk-a' }, {}), undefined);
  assert.equal(extractApiKey('anthropic', { ...bearer, 'x-api-key': 'sk-a' }, {}), 'sk-a');
  assert.equal(extractApiKey('anthropic', bearer, {}), 'sk-b');
  assert.equal(extractApiKey('anthropic', { 'x-goog-api-key': 'sk-g' }, { key: 'sk-q' }), undefined);
  assert.equal(extractApiKey('gemini', { 'x-goog-api-key': ' sk-g ' }, { key: 'sk-q' }), 'sk-g');
  assert.equal(extractApiKey('gemini', bearer, { key: 'sk-q' }), 'sk-q');
  assert.equal(extractApiKey('gemini', { ...bearer, 'x-goog-api-key': '' }, {}), 'sk-b');
  assert.match(expectedCredential('gemini'), /x-goog-api-key/);
});
