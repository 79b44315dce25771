import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getCodec, isClientProtocol } from './codec-registry.ts';
import type { UpstreamProtocolId } from './protocol-codec.ts';

const PROTOCOLS: UpstreamProtocolId[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini-generate-content', 'bedrock-converse'];

test('every client protocol names the slot its replies carry reasoning state back in', () => {
  for (const protocol of PROTOCOLS.filter(isClientProtocol)) assert.ok(getCodec(protocol).reasoningSlot, protocol);
});

test('the protocols that issue reasoning state read it; Chat Completions takes none back', () => {
  const reading = PROTOCOLS.filter((protocol) => getCodec(protocol).takeReasoningState !== undefined).sort();
  assert.deepEqual(reading, ['anthropic-messages', 'bedrock-converse', 'gemini-generate-content', 'openai-responses']);
});

test("a codec reads only its own provider's state off a part, and removes it", () => {
  const part = { type: 'reasoning' as const, text: 't', signature: 'sig', providerMetadata: { openai: { encryptedContent: 'enc' } } };
  assert.equal(getCodec('gemini-generate-content').takeReasoningState?.(part), undefined);
  assert.deepEqual(getCodec('anthropic-messages').takeReasoningState?.(part), { kind: 'anthropic-thinking', text: 't', signature: 'sig' });
  assert.equal(part.signature, undefined);
  assert.deepEqual(getCodec('openai-responses').takeReasoningState?.(part), { kind: 'openai-reasoning', text: 't', encryptedContent: 'enc' });
});
