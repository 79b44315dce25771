import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPrivateAddress, lookupPublicOnly, privateUpstreamProblem } from './private-upstream-address.ts';

test('private, loopback, link-local, metadata and embedded-IPv4 forms are private; global unicast is not', () => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '[::1]',
  ]) {
    assert.equal(isPrivateAddress(address), true, address);
  }
  for (const address of ['8.8.8.8', '104.18.6.192', '2606:4700::6812:6c0', 'api.openai.com']) assert.equal(isPrivateAddress(address), false, address);
});

test('the connection lookup refuses a name that resolves to a private address, and passes a public one through', async () => {
  const refused = await new Promise<Error | null>((resolve) => lookupPublicOnly('localhost', {}, (error) => resolve(error)));
  assert.match(String(refused?.message), /localhost resolves to .* non-public address/);
  const literal = await new Promise<{ error: Error | null; address: unknown }>((resolve) =>
    lookupPublicOnly('8.8.8.8', { all: true }, (error, address) => resolve({ error, address })),
  );
  assert.equal(literal.error, null);
  assert.deepEqual(literal.address, [{ address: '8.8.8.8', family: 4 }]);
});

test('the save-time check names the address; an unresolvable name is left to the connect-time check', async () => {
  assert.match((await privateUpstreamProblem('http://169.254.169.254/latest/meta-data')) ?? '', /169\.254\.169\.254 is a private/);
  assert.match((await privateUpstreamProblem('http://[::ffff:169.254.169.254]/v1')) ?? '', /non-public/);
  assert.match((await privateUpstreamProblem('http://localhost:8080/v1')) ?? '', /localhost resolves to/);
  assert.equal(await privateUpstreamProblem('https://8.8.8.8/v1'), undefined);
  assert.equal(await privateUpstreamProblem('https://no-such-host.invalid/v1'), undefined);
});
