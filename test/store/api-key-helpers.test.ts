import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateApiKey } from '../../src/store/generate-api-key.ts';
import { generateId } from '../../src/store/generate-id.ts';
import { hashApiKey } from '../../src/access/hash-api-key.ts';
import { keyHint } from '../../src/store/key-hint.ts';
import { randomBase62 } from '../../src/store/random-base62.ts';

describe('API key helpers', () => {
  test('generateApiKey gives sk- and 48 base62 characters, different every time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey()));
    assert.equal(keys.size, 200);
    for (const key of keys) assert.match(key, /^sk-[0-9A-Za-z]{48}$/);
  });

  test('randomBase62 uses the whole alphabet roughly evenly', () => {
    const counts = new Map<string, number>();
    for (const character of randomBase62(248_000)) counts.set(character, (counts.get(character) ?? 0) + 1);
    assert.equal(counts.size, 62);
    // Expected 4000 each (standard deviation about 63); byte % 62 without rejection would give
    // the first eight characters about 4840 each.
    for (const [character, count] of counts) assert.ok(count > 3650 && count < 4350, `${character}: ${count}`);
  });

  test('generateId is prefixed', () => {
    assert.match(generateId('ch'), /^ch_[0-9A-Za-z]{16}$/);
    assert.match(generateId('key'), /^key_[0-9A-Za-z]{16}$/);
  });

  test('hashApiKey is SHA-256 hex', () => {
    assert.equal(hashApiKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  test('keyHint shows the prefix, four characters each end, never most of the key', () => {
    assert.equal(keyHint('sk-abcdEFGHijklMNOPqrstwxyz'), 'sk-abcd…wxyz');
    assert.equal(keyHint('sk-abcdefghij'), 'sk-ab…ij');
    assert.equal(keyHint('sk-abc'), 'sk-…');
    assert.equal(keyHint('plainlongsecret12345'), 'plai…2345');
  });
});
