import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createIpMatcher } from '../../src/access/ip-matcher.ts';
import { createClientIpResolver } from '../../src/access/resolve-client-ip.ts';

describe('IP allow-list matching', () => {
  const allowed = createIpMatcher(['203.0.113.0/24', '198.51.100.7', '2001:db8::/32', '::1', 'not-an-ip']);

  test('IPv4 CIDR and single address, including the v4-mapped form of a dual-stack socket', () => {
    assert.equal(allowed('203.0.113.200'), true);
    assert.equal(allowed('::ffff:203.0.113.9'), true);
    assert.equal(allowed('203.0.114.1'), false);
    assert.equal(allowed('198.51.100.7'), true);
    assert.equal(allowed('198.51.100.8'), false);
  });

  test('IPv6 CIDR, loopback, zone ids and brackets', () => {
    assert.equal(allowed('2001:db8:ffff::1'), true);
    assert.equal(allowed('[2001:db8::5]'), true);
    assert.equal(allowed('2001:db9::1'), false);
    assert.equal(allowed('::1'), true);
    assert.equal(allowed('fe80::1%eth0'), false);
  });

  test('a v4 entry never matches an unrelated v6 address, and /0 covers only its own family', () => {
    const anyV4 = createIpMatcher(['0.0.0.0/0']);
    assert.equal(anyV4('8.8.8.8'), true);
    assert.equal(anyV4('2001:db8::1'), false);
    const anyV6 = createIpMatcher(['::/0']);
    assert.equal(anyV6('2001:db8::1'), true);
    assert.equal(createIpMatcher(['::ffff:10.0.0.0/104'])('10.1.2.3'), true);
  });

  test('garbage matches nothing', () => {
    assert.equal(allowed('unknown'), false);
    assert.equal(allowed(''), false);
  });
});

describe('client IP resolution', () => {
  test('with no trusted proxies the headers are ignored: the socket peer is the client', () => {
    const resolve = createClientIpResolver([]);
    assert.equal(resolve('198.51.100.99', { 'x-forwarded-for': '203.0.113.5' }), '198.51.100.99');
    assert.equal(resolve('::ffff:198.51.100.99', { forwarded: 'for=203.0.113.5' }), '198.51.100.99');
  });

  test('an untrusted peer cannot spoof X-Forwarded-For even when proxies are configured', () => {
    const resolve = createClientIpResolver(['10.0.0.0/8']);
    assert.equal(resolve('198.51.100.99', { 'x-forwarded-for': '203.0.113.5' }), '198.51.100.99');
  });

  test('a trusted peer: X-Forwarded-For is read right to left, skipping trusted hops', () => {
    const resolve = createClientIpResolver(['10.0.0.0/8', '127.0.0.1']);
    assert.equal(resolve('127.0.0.1', { 'x-forwarded-for': '203.0.113.5' }), '203.0.113.5');
    // The client prepended a fake address; the real one is the rightmost untrusted hop.
    assert.equal(resolve('10.0.0.2', { 'x-forwarded-for': '1.1.1.1, 203.0.113.5, 10.0.0.7' }), '203.0.113.5');
    assert.equal(resolve('10.0.0.2', { 'x-forwarded-for': ['1.1.1.1', '203.0.113.6:5555'] }), '203.0.113.6');
    assert.equal(resolve('10.0.0.2', {}), '10.0.0.2');
    assert.equal(resolve('10.0.0.2', { 'x-forwarded-for': 'unknown, 10.0.0.3' }), '10.0.0.3');
  });

  test('only the configured header is read: by default X-Forwarded-For, never a client-sent Forwarded or X-Real-IP', () => {
    const resolve = createClientIpResolver(['::1']);
    assert.equal(resolve('::1', { forwarded: 'for=203.0.113.5', 'x-forwarded-for': '9.9.9.9' }), '9.9.9.9');
    assert.equal(resolve('::1', { forwarded: 'for=203.0.113.5' }), '::1');
    assert.equal(resolve('::1', { 'x-real-ip': '203.0.113.5' }), '::1');
  });

  test('CLIENT_IP_HEADER=forwarded: Forwarded, with quoted v6 and ports, and nothing else', () => {
    const resolve = createClientIpResolver(['::1'], 'forwarded');
    assert.equal(resolve('::1', { forwarded: 'for="[2001:db8:cafe::17]:4711";proto=https, for=::1', 'x-forwarded-for': '9.9.9.9' }), '2001:db8:cafe::17');
    assert.equal(resolve('::1', { forwarded: 'for=192.0.2.43:47011' }), '192.0.2.43');
    assert.equal(resolve('::1', { 'x-forwarded-for': '9.9.9.9' }), '::1');
  });

  test('CLIENT_IP_HEADER=x-real-ip: one address, the last if a proxy appended', () => {
    const resolve = createClientIpResolver(['10.0.0.0/8'], 'x-real-ip');
    assert.equal(resolve('10.0.0.1', { 'x-real-ip': '203.0.113.9' }), '203.0.113.9');
    assert.equal(resolve('10.0.0.1', { 'x-real-ip': '1.1.1.1, 203.0.113.9' }), '203.0.113.9');
    assert.equal(resolve('10.0.0.1', { 'x-forwarded-for': '203.0.113.9' }), '10.0.0.1');
  });
});
