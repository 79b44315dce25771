import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSecretBox, SecretBoxError } from '../../src/store/secret-box.ts';

const secret = Buffer.from('gateway-secret-for-tests-0123456789', 'utf8');

describe('createSecretBox', () => {
  test('round-trips text, including non-ASCII and empty strings', () => {
    const box = createSecretBox(secret);
    for (const plaintext of ['sk-live-abc', '', 'ключ 🔑', JSON.stringify(['a', 'b'])]) {
      assert.equal(box.open(box.seal(plaintext)), plaintext);
    }
  });

  test('the sealed form is versioned base64url parts and does not contain the plaintext', () => {
    const sealed = createSecretBox(secret).seal('sk-very-secret-value');
    assert.match(sealed, /^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    assert.ok(!sealed.includes('sk-very-secret-value'));
  });

  test('each seal uses a fresh IV, so equal secrets do not look equal', () => {
    const box = createSecretBox(secret);
    assert.notEqual(box.seal('same'), box.seal('same'));
  });

  test('another gateway secret cannot open it, and says why', () => {
    const sealed = createSecretBox(secret).seal('sk-very-secret-value');
    const other = createSecretBox(Buffer.from('a-different-gateway-secret-000000', 'utf8'));
    assert.throws(
      () => other.open(sealed),
      (error: unknown) => error instanceof SecretBoxError && /GATEWAY_SECRET changed\? cannot decrypt channel secrets/.test(error.message),
    );
  });

  test('tampering is detected', () => {
    const box = createSecretBox(secret);
    const [version, iv, tag, ciphertext] = box.seal('sk-very-secret-value').split(':') as [string, string, string, string];
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    assert.throws(() => box.open([version, iv, tag, flipped.toString('base64url')].join(':')), SecretBoxError);
  });

  test('unknown formats are rejected', () => {
    const box = createSecretBox(secret);
    assert.throws(() => box.open('plain-text'), /unrecognised encrypted value/);
    assert.throws(() => box.open('v2:a:b:c'), /unrecognised encrypted value/);
    assert.throws(() => createSecretBox(Buffer.alloc(0)), /empty/);
  });
});
