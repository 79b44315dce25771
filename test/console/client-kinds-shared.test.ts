import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientSetup as consoleSetup, CLIENT_KINDS as CONSOLE_KINDS } from '../../console/src/lib/client-kinds.ts';
import { clientSetup as gatewaySetup } from '../../src/access/client-kinds.ts';
import { CLIENT_KINDS } from '../../src/domain/client-kinds.ts';
import { explainRouteMiss } from '../../src/server/misconfigured-client-hint.ts';

const ROOT = 'http://gateway.test:8080';

test('the console offers set-up for every client kind the gateway knows, in the same order', () => {
  assert.deepEqual(
    CONSOLE_KINDS.map(([kind]) => kind),
    [...CLIENT_KINDS],
  );
});

test('the console and the gateway give the same address and protocol for every client kind', () => {
  for (const kind of CLIENT_KINDS) {
    const shown = consoleSetup(kind, ROOT, '<API_KEY>', 'gpt-4o-mini', 'antigravity');
    const taught = gatewaySetup(kind, ROOT, 'antigravity', 'gpt-4o-mini');
    assert.equal(shown.address, taught.baseUrl, kind);
    // The live check reads the model list of the same surface the client uses.
    assert.equal(shown.probe.path.startsWith('/antigravity/'), taught.surface === 'antigravity', kind);
  }
});

test('the route-miss hint points at addresses from the same table', () => {
  const headers = { host: 'gateway.test:8080' };
  const doubled = explainRouteMiss('GET', '/v1beta/v1beta/models', 'antigravity', headers).error.message;
  assert.ok(doubled.includes(gatewaySetup('gemini-cli', ROOT, 'antigravity', 'm').baseUrl), doubled);
  const noV1 = explainRouteMiss('POST', '/chat/completions', 'antigravity', headers).error.message;
  assert.ok(noV1.includes(`base address ${gatewaySetup('openai-sdk', ROOT, 'antigravity', 'm').baseUrl}`), noV1);
  const anthropic = explainRouteMiss('POST', '/v1/v1/messages', 'antigravity', headers).error.message;
  assert.ok(anthropic.includes(`root address ${gatewaySetup('claude-code', ROOT, 'antigravity', 'm').baseUrl}`), anthropic);
});

test('an unknown path lists the address of every client kind the table knows', () => {
  const message = explainRouteMiss('GET', '/nowhere', 'antigravity', { host: 'gateway.test:8080' }).error.message;
  for (const kind of CLIENT_KINDS) {
    assert.ok(message.includes(gatewaySetup(kind, ROOT, 'antigravity', 'm').baseUrl), `${kind} missing from: ${message}`);
  }
});
