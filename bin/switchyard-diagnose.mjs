#!/usr/bin/env node
// Runs the gateway's model check for your key and prints it as a checklist.
//   SWITCHYARD_URL=http://127.0.0.1:8080 SWITCHYARD_API_KEY=sk-... \
//     switchyard-diagnose --model gpt-4o-mini --client claude-code
// Exit status: 0 when every check passes, 1 when one fails, 2 when the check could not run.

const args = process.argv.slice(2);
const USAGE = [
  'usage: switchyard-diagnose --model <name> [--client <kind>] [--url <gateway>] [--key <key>]',
  '       (or SWITCHYARD_URL and SWITCHYARD_API_KEY in the environment)',
  'client kinds: openai-sdk, openai-http, claude-code, anthropic-sdk, gemini-cli, genai-sdk, gemini-http, codex, antigravity',
  'exit status: 0 every check passes, 1 a check fails, 2 the check could not run',
].join('\n');
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const option = (name) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
};
const url = (option('url') ?? process.env.SWITCHYARD_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const key = option('key') ?? process.env.SWITCHYARD_API_KEY;
const model = option('model');
const client = option('client');

if (!key || model === undefined) {
  console.error(USAGE);
  process.exit(2);
}

const query = new URLSearchParams({ model, ...(client ? { client } : {}) });
let response;
try {
  response = await fetch(`${url}/api/diagnose?${query}`, { headers: { authorization: `Bearer ${key}` } });
} catch (error) {
  console.error(`Could not reach the gateway at ${url}: ${error.cause?.message ?? error.message}`);
  process.exit(2);
}
const body = await response.json().catch(() => undefined);
if (!response.ok || !body?.checks) {
  console.error(`The gateway answered ${response.status}: ${body?.error?.message ?? 'no details'}`);
  process.exit(2);
}

const marks = { pass: '✓', fail: '✗', warn: '!', skip: '-' };
console.log(`Model check for ${JSON.stringify(body.model)}${body.client ? ` with ${body.client}` : ''} (group "${body.group}")`);
for (const check of body.checks) console.log(`${marks[check.verdict] ?? '?'} ${check.step}. ${check.name}: ${check.detail}`);
if (body.setup) {
  console.log('');
  console.log(`Base address: ${body.setup.baseUrl}`);
  console.log(`Key header:   ${body.setup.credential}`);
}
process.exit(body.verdict === 'fail' ? 1 : 0);
