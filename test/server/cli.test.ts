import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_TOKEN, UPSTREAM_SECRET, startHarness, type Harness } from '../helpers/gateway-harness.ts';

const CLI = fileURLToPath(new URL('../../bin/switchyard.mjs', import.meta.url));

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a user would (a separate process), asynchronously so the in-process gateway can answer. */
function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env } as NodeJS.ProcessEnv, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the switchyard CLI against a running gateway', () => {
  let harness: Harness;
  let cli: (...args: string[]) => Promise<CliRun>;

  const models = async (key: string) => {
    const response = await fetch(`${harness.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    return response.status;
  };

  before(async () => {
    harness = await startHarness();
    cli = (...args) => runCli(args, { SWITCHYARD_URL: harness.url, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN });
  });
  after(() => harness.close());

  test('help lists every command and exits 0', async () => {
    const run = await runCli(['help']);
    assert.equal(run.code, 0);
    for (const command of [
      'group list',
      'group create',
      'group update',
      'group delete',
      'channel list',
      'channel create',
      'channel update',
      'channel enable',
      'channel disable',
      'channel delete',
      'channel test',
      'key list',
      'key create',
      'key revoke',
      'price set',
      'price list',
      'logs',
    ]) {
      assert.ok(run.stdout.includes(`  ${command}`), `help misses "${command}"`);
    }
  });

  test('group create, list (with the billing mode), update, rename and delete', async () => {
    const created = await cli('group', 'create', 'team', '--description', 'The team', '--multiplier', '0.5', '--billing', 'subscription');
    assert.deepEqual(created, { code: 0, stdout: 'Created group team.\n', stderr: '' });
    const listed = await cli('group', 'list');
    assert.equal(listed.code, 0);
    const lines = listed.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^NAME\s+BILLING\s+MULTIPLIER\s+DESCRIPTION$/);
    assert.ok(
      lines.some((line) => /^team\s+subscription\s+0\.5\s+The team$/.test(line)),
      listed.stdout,
    );
    assert.ok(
      lines.some((line) => /^default\s+balance\s+1\s/.test(line)),
      listed.stdout,
    );

    assert.deepEqual(await cli('group', 'update', 'team', '--billing', 'subscription_then_balance'), { code: 0, stdout: 'Updated group team.\n', stderr: '' });
    assert.deepEqual(await cli('group', 'update', 'team', '--rename', 'crew'), { code: 0, stdout: 'Renamed group team to crew.\n', stderr: '' });
    assert.ok((await cli('group', 'list')).stdout.split('\n').some((line) => /^crew\s+subscription_then_balance\s+0\.5\s+The team$/.test(line)));
    assert.equal((await cli('group', 'update', 'crew')).code, 2, 'nothing to change is a usage mistake');
    assert.deepEqual(await cli('group', 'update', 'crew', '--rename', 'team'), { code: 0, stdout: 'Renamed group crew to team.\n', stderr: '' });

    const json = await cli('group', 'list', '--json');
    const groups = JSON.parse(json.stdout) as Array<{ name: string; priceMultiplier: number }>;
    assert.deepEqual(groups.map((group) => [group.name, group.priceMultiplier]).sort(), [
      ['default', 1],
      ['team', 0.5],
    ]);

    assert.equal((await cli('group', 'delete', 'team')).code, 0);
    assert.ok(!(await cli('group', 'list')).stdout.includes('team'));
  });

  test('key create prints a secret that works at once; key revoke stops it at once', async () => {
    await harness.addChannel({ provider: 'openai', models: ['cli-model'] });
    const created = await cli('key', 'create', '--group', 'default', '--name', 'alice');
    assert.equal(created.code, 0, created.stderr);
    const secret = /^\s+(sk-\S+)$/m.exec(created.stdout)?.[1] ?? '';
    assert.match(secret, /^sk-[A-Za-z0-9]{40,}$/);
    assert.match(created.stdout, /Created key alice \(key_\w+\) in group default\./);
    assert.match(created.stdout, /shown only once/);
    assert.equal(await models(secret), 200);

    const listed = await cli('key', 'list');
    assert.match(listed.stdout, /^ID\s+NAME\s+GROUP\s+KEY\s+ENABLED\s+EXPIRES\s+BALANCE\s+SPENT$/m);
    assert.match(listed.stdout, /^key_\w+\s+alice\s+default\s+sk-\w{4}…\w{4}\s+yes\s+never\s+unlimited\s+\$0$/m);
    assert.ok(!listed.stdout.includes(secret), 'key list showed the secret');

    const revoked = await cli('key', 'revoke', 'alice');
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /^Revoked key alice \(key_\w+\)\.$/m);
    assert.equal(await models(secret), 401);
    assert.ok(!(await cli('key', 'list')).stdout.includes('alice'));
  });

  test('key create with limits, and key revoke --disable keeps the record but refuses the key', async () => {
    const created = await cli(
      'key',
      'create',
      '--name',
      'bob',
      '--quota',
      '5',
      '--models',
      'cli-model, other',
      '--ips',
      '127.0.0.1,::1',
      '--expires',
      '2031-01-01T00:00:00Z',
      '--json',
    );
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout);
    assert.equal(key.group, 'default');
    assert.equal(key.balance, 5);
    assert.deepEqual(key.allowedModels, ['cli-model', 'other']);
    assert.deepEqual(key.allowedIps, ['127.0.0.1', '::1']);
    assert.equal(key.expiresAt, '2031-01-01T00:00:00.000Z');
    assert.equal(await models(key.key), 200);

    const disabled = await cli('key', 'revoke', key.id, '--disable');
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.equal(await models(key.key), 403);
    assert.match((await cli('key', 'list')).stdout, /bob\s+default\s+\S+\s+no\s/);
  });

  test('channel create, list (secret never shown), test and delete', async () => {
    const created = await cli(
      'channel',
      'create',
      '--name',
      'cli-openai',
      '--provider',
      'openai',
      '--base-url',
      `${harness.simulator.url}/v1`,
      '--api-key',
      UPSTREAM_SECRET,
      '--models',
      'alpha,beta',
      '--priority',
      '3',
      '--map',
      'alpha=alpha-upstream',
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^Created channel cli-openai \(ch_\w+\) serving alpha, beta to default\.$/m);

    const listed = await cli('channel', 'list');
    assert.match(listed.stdout, /^ID\s+NAME\s+PROVIDER\s+MODELS\s+GROUPS\s+PRIORITY\s+WEIGHT\s+ENABLED\s+HEALTH$/m);
    assert.match(listed.stdout, /^ch_\w+\s+cli-openai\s+openai\s+alpha,beta\s+default\s+3\s+1\s+yes\s+untested$/m);
    const json = await cli('channel', 'list', '--json');
    assert.ok(!json.stdout.includes(UPSTREAM_SECRET) && !listed.stdout.includes(UPSTREAM_SECRET), 'an upstream secret was printed');
    const channel = (JSON.parse(json.stdout) as Array<{ name: string; modelMap: Record<string, string>; apiKeys: string[] }>).find(
      (entry) => entry.name === 'cli-openai',
    );
    assert.deepEqual(channel?.modelMap, { alpha: 'alpha-upstream' });
    assert.deepEqual(channel?.apiKeys, ['sk-u…WXYZ']);

    const ok = await cli('channel', 'test', 'cli-openai', '--model', 'beta');
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^ok: cli-openai answered 200 for beta in \d+ ms$/m);

    harness.simulator.enqueue({ fault: { type: 'status', status: 500 } });
    const failed = await cli('channel', 'test', 'cli-openai');
    assert.equal(failed.code, 1);
    assert.match(failed.stdout, /^failed: cli-openai for alpha: 500 upstream_error: /m);

    assert.equal((await cli('channel', 'delete', 'cli-openai')).code, 0);
    assert.ok(!(await cli('channel', 'list')).stdout.includes('cli-openai'));
  });

  test('price set and list', async () => {
    const set = await cli('price', 'set', 'cli-model', '--input', '2.5', '--output', '10', '--cache-read', '1.25');
    assert.deepEqual(set, { code: 0, stdout: 'Set cli-model: input $2.5, output $10 per million tokens.\n', stderr: '' });
    const listed = await cli('price', 'list');
    assert.match(listed.stdout, /^MODEL\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE$/m);
    assert.match(listed.stdout, /^cli-model\s+2\.5\s+10\s+1\.25\s+-$/m);
  });

  test('price catalogue loads the shipped catalogue, then a file; loading again changes nothing', async () => {
    const shipped = await cli('price', 'catalogue');
    assert.equal(shipped.code, 0);
    assert.match(shipped.stdout, /^Catalogue \d{4}-\d{2}-\d{2}: \d+ models added or changed, 0 unchanged\.\n$/);
    assert.match((await cli('price', 'catalogue')).stdout, /: 0 models added or changed, \d+ unchanged/);
    const directory = mkdtempSync(join(tmpdir(), 'switchyard-catalogue-'));
    const file = join(directory, 'catalogue.json');
    writeFileSync(file, JSON.stringify({ source: 'our contract', date: '2026-01-01', models: [{ model: 'gpt-4o', input: 2, output: 8 }] }));
    assert.equal((await cli('price', 'catalogue', '--file', file)).stdout, 'Catalogue 2026-01-01: 1 models added or changed, 0 unchanged.\n');
    rmSync(directory, { recursive: true, force: true });
  });

  test('logs shows recent requests, filtered and limited', async () => {
    const { key } = await harness.addKey({ name: 'log-reader' });
    for (const text of ['first', 'second']) {
      harness.simulator.enqueue({ text, usage: { input: 4, output: 1 } });
      const response = await fetch(`${harness.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'cli-model', messages: [{ role: 'user', content: text }] }),
      });
      assert.equal(response.status, 200);
      await response.text();
    }
    const logs = await cli('logs', '--limit', '1', '--model', 'cli-model');
    assert.equal(logs.code, 0, logs.stderr);
    const lines = logs.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2, logs.stdout);
    assert.match(lines[0] ?? '', /^TIME\s+STATUS\s+MODEL\s+KEY\s+CHANNEL\s+TRIES\s+IN\s+OUT\s+COST\s+MS\s+STREAM\s+REQUEST ID$/);
    assert.match(
      lines[1] ?? '',
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\s+200\s+cli-model\s+log-reader\s+channel-\d+\s+1\s+4\s+1\s+\$\d+\.\d{6}\s+\d+\s+no\s+req_\w+$/,
    );

    const json = JSON.parse((await cli('logs', '--model', 'cli-model', '--json')).stdout) as Array<{ keyName: string }>;
    assert.deepEqual(
      json.map((entry) => entry.keyName),
      ['log-reader', 'log-reader'],
    );
    // --key takes the key's name as well as its id (it was silently empty for names).
    const byName = JSON.parse((await cli('logs', '--key', 'log-reader', '--json')).stdout) as Array<{ keyName: string }>;
    assert.deepEqual(
      byName.map((entry) => entry.keyName),
      ['log-reader', 'log-reader'],
    );
  });

  test('key create --balance sets the balance', async () => {
    const created = JSON.parse((await cli('key', 'create', '--name', 'funded', '--balance', '2.5', '--json')).stdout);
    assert.equal(created.balance, 2.5);
  });

  test('channel update, disable and enable, by name', async () => {
    await cli(
      'channel',
      'create',
      '--name',
      'tuned',
      '--provider',
      'openai',
      '--base-url',
      `${harness.simulator.url}/v1`,
      '--api-key',
      UPSTREAM_SECRET,
      '--models',
      'tuned-model',
    );
    const updated = await cli('channel', 'update', 'tuned', '--priority', '7', '--models', 'tuned-model,second');
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stdout, /^Updated channel tuned \(ch_\w+\): models, priority\.$/m);
    let channel = await harness.admin('GET', '/channels/tuned');
    assert.deepEqual([channel.priority, channel.models], [7, ['tuned-model', 'second']]);
    assert.equal((await cli('channel', 'disable', 'tuned')).code, 0);
    channel = await harness.admin('GET', '/channels/tuned');
    assert.equal(channel.enabled, false);
    assert.equal((await cli('channel', 'enable', 'tuned')).code, 0);
    channel = await harness.admin('GET', '/channels/tuned');
    assert.equal(channel.enabled, true);
    const nothing = await cli('channel', 'update', 'tuned');
    assert.equal(nothing.code, 2);
  });

  test('switchyard-diagnose --help exits 0 and is in package.json bin', async () => {
    const diagnose = fileURLToPath(new URL('../../bin/switchyard-diagnose.mjs', import.meta.url));
    const run = await new Promise<CliRun>((resolve) =>
      execFile(process.execPath, [diagnose, '--help'], (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr })),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^usage: switchyard-diagnose --model/);
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    assert.equal(manifest.bin['switchyard-diagnose'], './bin/switchyard-diagnose.mjs');
  });

  describe('errors: the API message on stderr, exit 1', () => {
    test('a duplicate name', async () => {
      assert.equal((await cli('key', 'create', '--name', 'twice')).code, 0);
      const run = await cli('key', 'create', '--name', 'twice');
      assert.equal(run.code, 1);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^switchyard: a key named "twice" already exists \(request id: req_\w+\)\n$/);
    });

    test('an unknown group, naming the field; nothing is created', async () => {
      const run = await cli('key', 'create', '--name', 'lost', '--group', 'ghost');
      assert.equal(run.code, 1);
      assert.match(run.stderr, /^switchyard: group: group "ghost" does not exist/);
      assert.ok(!(await cli('key', 'list')).stdout.includes('lost'));
    });

    test('a bad URL from the API validation', async () => {
      const run = await cli('channel', 'create', '--name', 'x', '--provider', 'openai', '--base-url', 'not-a-url', '--api-key', 'k', '--models', 'm');
      assert.equal(run.code, 1);
      assert.match(run.stderr, /^switchyard: baseUrl: must be an http\(s\) URL/);
    });

    test('an unknown record', async () => {
      const run = await cli('key', 'revoke', 'nobody');
      assert.equal(run.code, 1);
      assert.match(run.stderr, /No key with the id or name "nobody" exists/);
    });

    test('a wrong or missing admin token', async () => {
      const wrong = await runCli(['key', 'list'], { SWITCHYARD_URL: harness.url, GATEWAY_ADMIN_TOKEN: 'wrong' });
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /^switchyard: The admin API needs the gateway admin token/);
      const missing = await runCli(['key', 'list'], { SWITCHYARD_URL: harness.url });
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /^switchyard: GATEWAY_ADMIN_TOKEN is not set/);
    });

    test('an unreachable gateway', async () => {
      // A port that was just free: nothing listens there now.
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      await new Promise((resolve) => server.close(resolve));
      const run = await runCli(['group', 'list', '--url', `http://127.0.0.1:${port}`], { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN });
      assert.equal(run.code, 1);
      assert.equal(
        run.stderr,
        `switchyard: cannot reach the gateway at http://127.0.0.1:${port} (ECONNREFUSED); is it running? Set SWITCHYARD_URL to its address.\n`,
      );
    });

    test('--url wins over SWITCHYARD_URL', async () => {
      const run = await runCli(['group', 'list', '--url', harness.url], { SWITCHYARD_URL: 'http://127.0.0.1:9', GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN });
      assert.equal(run.code, 0, run.stderr);
    });

    test('--url (and --json) before the command', async () => {
      const env = { SWITCHYARD_URL: 'http://127.0.0.1:9', GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN };
      const run = await runCli(['--url', harness.url, '--json', 'group', 'list'], env);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(Array.isArray(JSON.parse(run.stdout)));
      assert.equal((await runCli([`--url=${harness.url}`, 'group', 'list'], env)).code, 0);
    });
  });

  describe('usage mistakes: exit 2 before any request', () => {
    const cases: Array<[string[], RegExp]> = [
      [['key', 'create'], /--name is required/],
      [['key', 'create', '--name', 'n', '--quota', 'lots'], /--quota must be a number, got "lots"/],
      [['key', 'create', '--name', 'n', '--bogus'], /Unknown option '--bogus'[\s\S]*usage: switchyard key create/],
      [['key'], /missing key command; use one of: list, create, revoke/],
      [['--bogus', 'key', 'list'], /unknown option "--bogus" before the command/],
      [['key', 'destroy'], /unknown key command "destroy"/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [
        ['channel', 'create', '--name', 'c', '--provider', 'openai', '--base-url', 'http://x', '--api-key', 'k', '--models', 'm', '--map', 'oops'],
        /--map takes public=upstream pairs/,
      ],
      [['price', 'set', 'm', '--input', '1'], /--output is required/],
    ];
    for (const [args, message] of cases) {
      test(args.join(' '), async () => {
        const before = harness.simulator.requests.length;
        const keys = await harness.admin('GET', '/keys');
        const run = await cli(...args);
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, message);
        assert.deepEqual(await harness.admin('GET', '/keys'), keys);
        assert.equal(harness.simulator.requests.length, before);
      });
    }
  });
});
