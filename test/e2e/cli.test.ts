import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { requireTestClients, runCli, type CliRun } from '../helpers/run-cli.ts';

/**
 * The real command-line clients (versions pinned in test/clients/package-lock.json, installed by
 * `npm test` through scripts/install-test-clients.mjs), offline, each against each upstream kind.
 * Each must exit 0 and print the simulator's reply.
 */
requireTestClients();
const REPLY = 'Pong from the provider simulator.';
const UPSTREAMS = [
  { provider: 'openai', model: 'cli-openai' },
  { provider: 'anthropic', model: 'cli-anthropic' },
  { provider: 'gemini', model: 'cli-gemini' },
] as const;

function run(command: string, args: string[], env: Record<string, string>, cwd: string) {
  return runCli(command, args, env, cwd, 120_000);
}

describe('real CLIs through the gateway', { concurrency: false }, () => {
  let harness: Harness;
  let key: string;
  let home: string;

  before(async () => {
    harness = await startHarness();
    for (const upstream of UPSTREAMS) await harness.addChannel({ provider: upstream.provider, models: [upstream.model] });
    ({ key } = await harness.addKey());
    harness.simulator.setDefault({ text: REPLY });
    home = mkdtempSync(join(tmpdir(), 'switchyard-cli-'));
  });
  after(async () => {
    await harness.close();
    rmSync(home, { recursive: true, force: true });
  });

  const freshHome = (name: string) => {
    const directory = join(home, name);
    mkdirSync(directory, { recursive: true });
    return directory;
  };
  const assertReplied = (result: CliRun, name: string) => {
    assert.equal(result.code, 0, `${name} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr.slice(-2000)}`);
    assert.match(result.stdout, /Pong from the provider simulator\./);
  };

  for (const upstream of UPSTREAMS) {
    test(`claude -p reaches a ${upstream.provider} channel`, async () => {
      const directory = freshHome(`claude-${upstream.provider}`);
      const result = await run(
        'claude',
        ['-p', 'Reply with pong.'],
        {
          HOME: directory,
          ANTHROPIC_BASE_URL: harness.url,
          ANTHROPIC_AUTH_TOKEN: key,
          ANTHROPIC_MODEL: upstream.model,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
        },
        directory,
      );
      assertReplied(result, 'claude');
    });

    test(`gemini -p reaches a ${upstream.provider} channel`, async () => {
      const directory = freshHome(`gemini-${upstream.provider}`);
      mkdirSync(join(directory, '.gemini'));
      writeFileSync(join(directory, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
      const result = await run(
        'gemini',
        ['-p', 'Reply with pong.'],
        {
          HOME: directory,
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
          GOOGLE_GEMINI_BASE_URL: harness.url,
          GEMINI_API_KEY: key,
          GEMINI_MODEL: upstream.model,
        },
        directory,
      );
      assertReplied(result, 'gemini');
    });

    test(`codex exec reaches a ${upstream.provider} channel`, async () => {
      const directory = freshHome(`codex-${upstream.provider}`);
      mkdirSync(join(directory, '.codex'));
      writeFileSync(
        join(directory, '.codex', 'config.toml'),
        [
          `model = "${upstream.model}"`,
          'model_provider = "switchyard"',
          '[model_providers.switchyard]',
          'name = "switchyard"',
          `base_url = "${harness.url}/v1"`,
          'env_key = "SWITCHYARD_API_KEY"',
          'wire_api = "responses"',
          'request_max_retries = 0',
          'stream_max_retries = 0',
        ].join('\n'),
      );
      const result = await run(
        'codex',
        ['exec', '--skip-git-repo-check', 'Reply with pong.'],
        {
          HOME: directory,
          CODEX_HOME: join(directory, '.codex'),
          SWITCHYARD_API_KEY: key,
        },
        directory,
      );
      assertReplied(result, 'codex');
    });
  }

  // Issue 24: Claude Code retried a wrong key's 401 with back-off for minutes, printing nothing.
  // With `x-should-retry: false` it stops after one request and says why.
  test('claude -p with a wrong key stops after one request and prints why', async () => {
    const refusedBefore = await refusedAuthCount(harness);
    const directory = freshHome('claude-wrong-key');
    const startedAt = Date.now();
    const result = await runCli(
      'claude',
      ['-p', 'Reply with pong.'],
      {
        HOME: directory,
        ANTHROPIC_BASE_URL: harness.url,
        ANTHROPIC_AUTH_TOKEN: 'sk-not-a-switchyard-key',
        ANTHROPIC_MODEL: 'cli-anthropic',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
      directory,
      60_000,
    );
    const seconds = (Date.now() - startedAt) / 1000;
    assert.notEqual(result.code, 0);
    assert.ok(seconds < 30, `claude took ${seconds} s (killed: ${result.code === null})`);
    assert.match(result.stdout + result.stderr, /401|API key|log ?in|authenticat/i);
    assert.equal((await refusedAuthCount(harness)) - refusedBefore, 1, 'one request, no retries');
  });

  // Issue 24: Claude Code given <root>/v1 calls /v1/v1/messages; it is served (with a warning header).
  test('claude -p given <root>/v1 as its base still gets its answer', async () => {
    const directory = freshHome('claude-doubled-v1');
    const result = await run(
      'claude',
      ['-p', 'Reply with pong.'],
      {
        HOME: directory,
        ANTHROPIC_BASE_URL: `${harness.url}/v1`,
        ANTHROPIC_AUTH_TOKEN: key,
        ANTHROPIC_MODEL: 'cli-anthropic',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
      directory,
    );
    assertReplied(result, 'claude');
  });
});

/** Requests the gateway refused for an unknown or missing key, all protocols. */
async function refusedAuthCount(harness: Harness): Promise<number> {
  const metrics = await (await fetch(`${harness.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  return metrics
    .split('\n')
    .filter((line) => line.startsWith('switchyard_refused_auth_total{'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
