import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createEnvelopeSealer } from '../relay/reasoning/reasoning-envelope.ts';
import { COMPACTION_SUMMARY_PREFIX, createCompactionSeal, openCompactionItems } from './compaction-seal.ts';

describe('compaction seal', () => {
  const seal = createCompactionSeal('gateway-secret');

  test('opens only what it sealed, for the same key, untouched', () => {
    const sealed = seal.seal('key_a', 'The summary.');
    assert.equal(seal.open('key_a', sealed), 'The summary.');
    assert.equal(seal.open('key_b', sealed), undefined, "another key's item");
    assert.equal(createCompactionSeal('other-secret').open('key_a', sealed), undefined, "another gateway's item");
    const bytes = Buffer.from(sealed, 'base64');
    bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 1;
    assert.equal(seal.open('key_a', bytes.toString('base64')), undefined, 'an altered item');
    // A reasoning envelope under the same secret is no compaction item (its own purpose and magic).
    const envelope = createEnvelopeSealer('gateway-secret').seal({ protocol: 'anthropic-messages', channelId: 'ch' }, []);
    assert.equal(seal.open('key_a', envelope), undefined);
  });

  test('openCompactionItems replaces sealed items by the summary and names a bad one', () => {
    const body = {
      model: 'm',
      input: [
        { role: 'user', content: 'hi' },
        { type: 'compaction', id: 'cmp_1', encrypted_content: seal.seal('key_a', 'S') },
      ],
    };
    const opened = openCompactionItems(seal, 'key_a', body);
    assert.deepEqual(opened?.input, [
      { role: 'user', content: 'hi' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: `${COMPACTION_SUMMARY_PREFIX}S` }] },
    ]);
    assert.equal(openCompactionItems(seal, 'key_a', { model: 'm', input: 'no items' }), undefined);
    assert.throws(
      () => openCompactionItems(seal, 'key_b', body),
      (error: any) => error.status === 400 && error.param === 'input[1].encrypted_content' && /compaction item "cmp_1"/.test(error.message),
    );
  });

  test('an upstream item wrapped for a key goes back exactly as issued, to that key only', () => {
    const wrapped = seal.wrap('key_a', 'gAAAAABupstream');
    assert.ok(!wrapped.includes('upstream'), 'opaque');
    assert.equal(seal.unwrap('key_a', wrapped), 'gAAAAABupstream');
    assert.equal(seal.open('key_a', wrapped), undefined, 'no summary inside');
    assert.equal(seal.unwrap('key_a', seal.seal('key_a', 'S')), undefined, 'a summary is no upstream item');
    const body = { model: 'm', input: [{ type: 'compaction', id: 'cmp_up', encrypted_content: wrapped }] };
    assert.deepEqual(openCompactionItems(seal, 'key_a', body)?.input, [{ type: 'compaction', id: 'cmp_up', encrypted_content: 'gAAAAABupstream' }]);
    assert.throws(
      () => openCompactionItems(seal, 'key_b', body),
      (error: any) => error.status === 400 && /compaction item "cmp_up"/.test(error.message),
    );
  });
});
