import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { clientSetup as gatewaySetup } from '../../src/access/client-kinds.ts';
import { CLIENT_KINDS } from '../../src/domain/client-kinds.ts';
import { clientSetup } from '../../src/domain/client-setup.ts';
import { explainRouteMiss } from '../../src/server/generation/misconfigured-client-hint.ts';

const ROOT = 'http://gateway.test:8080';
const CONSOLE_SOURCE = fileURLToPath(new URL('../../console/src/', import.meta.url));

function consoleFiles(directory = CONSOLE_SOURCE): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? consoleFiles(join(directory, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(directory, entry.name)] : [],
  );
}

test('the console has no set-up advice of its own: it imports the one module the gateway uses', () => {
  const files = consoleFiles();
  const importers = files.filter((file) => readFileSync(file, 'utf8').includes("from '../../../src/domain/client-setup.ts'"));
  assert.ok(
    importers.some((file) => file.endsWith('connect-page.tsx')),
    'Connect a client imports src/domain/client-setup.ts',
  );
  assert.ok(
    importers.some((file) => file.endsWith('model-check.ts')),
    'the model check imports src/domain/client-setup.ts',
  );
  // Phrases only set-up advice contains: a second copy in the console would carry them.
  for (const phrase of ['ANTHROPIC_BASE_URL', 'GOOGLE_GEMINI_BASE_URL', 'OPENAI_BASE_URL', 'wire_api', 'base_url']) {
    const holders = files.filter((file) => readFileSync(file, 'utf8').includes(phrase));
    assert.deepEqual(holders, [], `"${phrase}" belongs in src/domain/client-setup.ts only`);
  }
});

test('the diagnose answer and the console show the same address and advice for every client kind', () => {
  for (const kind of CLIENT_KINDS) {
    const shown = clientSetup(kind, { root: ROOT, altPrefix: 'antigravity', model: 'gpt-4o-mini', key: '<API_KEY>' });
    const taught = gatewaySetup(kind, ROOT, 'antigravity', 'gpt-4o-mini');
    assert.equal(shown.address, taught.baseUrl, kind);
    assert.equal(shown.advice, taught.advice, kind);
    assert.equal(shown.protocol, taught.protocol, kind);
    // The live check reads the model list of the same surface the client uses.
    assert.equal(shown.probe.path.startsWith('/antigravity/'), taught.surface === 'antigravity', kind);
    assert.ok(shown.blocks.length > 0, `${kind} has a copy-ready block`);
  }
});

test('google-genai (Python) gets a snippet with http_options base_url set to the root, not /v1beta', () => {
  const setup = clientSetup('genai-sdk', { root: ROOT, altPrefix: 'antigravity', model: 'gemini-2.5-flash', key: 'sk-test' });
  const python = setup.blocks.find(([title]) => title.startsWith('Python'));
  assert.ok(python, `blocks: ${setup.blocks.map(([title]) => title).join(', ')}`);
  assert.match(python[1], /^from google import genai$/m);
  assert.ok(python[1].includes(`genai.Client(api_key="sk-test", http_options={"base_url": "${ROOT}"})`), python[1]);
  assert.ok(python[1].includes('client.models.generate_content(model="gemini-2.5-flash", contents="Hello")'), python[1]);
  assert.ok(!python[1].includes('/v1beta'), 'the SDK adds the version itself');
  assert.match(setup.advice, /http_options=\{"base_url": "http:\/\/gateway\.test:8080"\}/);
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
