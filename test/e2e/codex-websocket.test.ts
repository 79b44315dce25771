import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { captureLogLines } from '../helpers/capture-log-lines.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { spawnSync } from 'node:child_process';
import { CLI_BIN, requireTestClients, runCli } from '../helpers/run-cli.ts';

/**
 * The real Codex CLI set up the way OpenAI's docs point it at a proxy: the built-in `openai`
 * provider with `openai_base_url = "<root>/v1"` and the key in CODEX_API_KEY. Codex then opens a
 * Responses WebSocket before its first turn: the session must start with no WebSocket error and
 * no reconnect lines, and the gateway log must show the upgrade (101) and the turns over it.
 */
requireTestClients();
const REPLY = 'Pong from the provider simulator.';
const UPSTREAMS = [
  { provider: 'openai', model: 'codex-ws-openai', extra: { supportsResponses: true, modelMap: { 'codex-ws-openai': 'gpt-5' } } },
  { provider: 'anthropic', model: 'codex-ws-anthropic', extra: { modelMap: { 'codex-ws-anthropic': 'claude-sonnet-4-6' } } },
] as const;

describe('real Codex with the built-in provider and openai_base_url', { concurrency: false }, () => {
  let harness: Harness;
  let key: { id: string; key: string };
  let home: string;
  const capture = captureLogLines();
  const logLines = capture.lines;

  before(async () => {
    harness = await startHarness({ logger: capture.logger });
    for (const upstream of UPSTREAMS) await harness.addChannel({ provider: upstream.provider, models: [upstream.model], ...upstream.extra });
    key = await harness.addKey();
    harness.simulator.setDefault({ text: REPLY });
    home = mkdtempSync(join(tmpdir(), 'switchyard-codex-ws-'));
  });
  after(async () => {
    await harness.close();
    rmSync(home, { recursive: true, force: true });
  });

  for (const upstream of UPSTREAMS) {
    test(`codex exec over the Responses WebSocket reaches a ${upstream.provider} channel`, async () => {
      const directory = join(home, upstream.provider);
      mkdirSync(join(directory, '.codex'), { recursive: true });
      writeFileSync(join(directory, '.codex', 'config.toml'), [`model = "${upstream.model}"`, `openai_base_url = "${harness.url}/v1"`].join('\n'));
      const linesBefore = logLines.length;
      const result = await runCli(
        'codex',
        ['exec', '--skip-git-repo-check', 'Reply with pong.'],
        {
          HOME: directory,
          CODEX_HOME: join(directory, '.codex'),
          CODEX_API_KEY: key.key,
        },
        directory,
        120_000,
      );
      assert.equal(result.code, 0, `codex exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr.slice(-3000)}`);
      assert.match(result.stdout, /Pong from the provider simulator\./);
      const output = `${result.stdout}\n${result.stderr}`;
      assert.doesNotMatch(output, /failed to connect to Responses WebSocket|Reconnecting|websocket.*(error|failed)/i, output.slice(-3000));

      const lines = logLines.slice(linesBefore).filter((line) => line.msg === 'request');
      const upgrades = lines.filter((line) => line.status === 101);
      assert.ok(upgrades.length >= 1, `the gateway log shows the upgrade: ${JSON.stringify(lines)}`);
      const turns = lines.filter((line) => line.transport === 'websocket' && line.method === 'WS' && line.model === upstream.model);
      assert.ok(turns.length >= 1, `the turn went over the socket: ${JSON.stringify(lines)}`);
      assert.ok(turns.every((line) => line.status === 200));
      assert.ok(!lines.some((line) => line.method === 'POST' && line.protocol === 'openai-responses'), 'no fallback to HTTP');
    });
  }

  /**
   * Two `codex exec` runs in one session with a tiny auto-compact limit, so the second starts by
   * compacting the first; the second run's log lines and upstream requests.
   */
  async function compactingSession(model: string, folder: string) {
    const directory = join(home, folder);
    mkdirSync(join(directory, '.codex'), { recursive: true });
    writeFileSync(
      join(directory, '.codex', 'config.toml'),
      [`model = "${model}"`, `openai_base_url = "${harness.url}/v1"`, 'model_auto_compact_token_limit = 500'].join('\n'),
    );
    const env = { HOME: directory, CODEX_HOME: join(directory, '.codex'), CODEX_API_KEY: key.key };
    const first = await runCli('codex', ['exec', '--skip-git-repo-check', 'Reply with pong.'], env, directory, 120_000);
    assert.equal(first.code, 0, `codex exited ${first.code}\nstderr: ${first.stderr.slice(-3000)}`);
    const linesBefore = logLines.length;
    const since = harness.simulator.requests.length;
    const second = await runCli('codex', ['exec', '--skip-git-repo-check', 'resume', '--last', 'Reply with pong again.'], env, directory, 120_000);
    assert.equal(second.code, 0, `codex exited ${second.code}\nstdout: ${second.stdout}\nstderr: ${second.stderr.slice(-3000)}`);
    assert.match(second.stdout, /Pong from the provider simulator\./);
    return { second, lines: logLines.slice(linesBefore).filter((line) => line.msg === 'request'), requests: harness.simulator.requests.slice(since) };
  }

  test('a long Codex session compacts (a compaction_trigger turn over the socket, answered with a gateway-sealed item) and carries the item on', async () => {
    const { second, lines, requests } = await compactingSession('codex-ws-anthropic', 'compaction');
    const compactions = requests.filter((request) => request.rawBody.includes('CONTEXT CHECKPOINT COMPACTION'));
    assert.ok(compactions.length >= 1, `Codex compacted through the gateway: ${JSON.stringify(lines)}\n${second.stderr.slice(-3000)}`);
    const last = requests.filter((request) => request.endpoint === 'generate').at(-1)!;
    assert.match(last.rawBody, /Another language model started to solve this problem/, 'the next turn carried the summary');
  });

  test('a long Codex session on an OpenAI upstream compacts through the upstream’s own /responses/compact and hands its item back', async () => {
    const { requests } = await compactingSession('codex-ws-openai', 'compaction-openai');
    assert.ok(
      requests.some((request) => request.endpoint === 'compact'),
      `Codex compacted through the upstream's endpoint: ${requests.map((request) => request.path).join(', ')}`,
    );
    const carried = requests.filter((request) => request.endpoint === 'generate' && request.rawBody.includes('"type":"compaction"'));
    assert.ok(carried.length >= 1, 'the next turn carried the upstream item back (the simulator refuses any item it did not issue)');
  });

  test('the built-in provider with the key given by `codex login --with-api-key` (no CODEX_API_KEY, no OPENAI_API_KEY)', async () => {
    const directory = join(home, 'login');
    mkdirSync(join(directory, '.codex'), { recursive: true });
    writeFileSync(join(directory, '.codex', 'config.toml'), ['model = "codex-ws-anthropic"', `openai_base_url = "${harness.url}/v1"`].join('\n'));
    const env = { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8', HOME: directory, CODEX_HOME: join(directory, '.codex') };
    // The documented way: the key on stdin (the only CLI run here whose stdin is not /dev/null).
    const login = spawnSync(join(CLI_BIN, 'codex'), ['login', '--with-api-key'], { input: key.key, env, cwd: directory, timeout: 60_000, encoding: 'utf8' });
    assert.equal(login.status, 0, `codex login exited ${login.status}: ${login.stderr}`);
    const result = await runCli(
      'codex',
      ['exec', '--skip-git-repo-check', 'Reply with pong.'],
      { HOME: directory, CODEX_HOME: join(directory, '.codex') },
      directory,
      120_000,
    );
    assert.equal(result.code, 0, `codex exited ${result.code}\nstderr: ${result.stderr.slice(-3000)}`);
    assert.match(result.stdout, /Pong from the provider simulator\./);
  });
});
