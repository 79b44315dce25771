import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamTargets } from './upstream-client.ts';

test('an upstream URL splits into origin and path (with its query) as undici derives them, once per URL', () => {
  const targets = new UpstreamTargets();
  const first = targets.split('https://Example.com:443/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  assert.deepEqual(first, { origin: 'https://example.com', path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse' });
  assert.equal(targets.split('https://Example.com:443/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'), first);
  assert.deepEqual(targets.split('http://127.0.0.1:8080/v1/chat/completions'), { origin: 'http://127.0.0.1:8080', path: '/v1/chat/completions' });
});

test('only http and https addresses are accepted, and the cache stays within its bound', () => {
  const targets = new UpstreamTargets(2);
  assert.throws(() => targets.split('ftp://example.com/v1'), /must start with `http:` or `https:`/);
  assert.throws(() => targets.split('not a url'), TypeError);
  const a = targets.split('http://a.test/x');
  targets.split('http://b.test/x');
  targets.split('http://c.test/x');
  assert.notEqual(targets.split('http://a.test/x'), a);
  assert.deepEqual(targets.split('http://a.test/x'), a);
});
