import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { envSchema } from '../../src/config/config-schema.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** `node dist/main.js` as an operator runs it (through tsx, the same code): banner, errors, token. */
describe('starting the gateway', () => {
  let directory: string;
  before(() => {
    directory = mkdtempSync(join(tmpdir(), 'switchyard-start-'));
  });
  after(() => rmSync(directory, { recursive: true, force: true }));

  const start = (env: Record<string, string>, args: string[] = []) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const serving = () => waitFor(() => stdout.includes('is serving at'), `the banner (stdout: ${stdout}, stderr: ${stderr})`, 120_000);
    const stop = async () => {
      child.kill('SIGTERM');
      return exited;
    };
    return { child, exited, serving, stop, stdout: () => stdout, stderr: () => stderr };
  };

  test('--help prints the usage and exits 0 without starting a gateway', async () => {
    const run = start({}, ['--help']);
    assert.equal(await run.exited, 0);
    assert.match(run.stdout(), /^Usage: node dist\/main\.js/);
    assert.match(run.stdout(), /Exit codes/);
    // Every variable the configuration reads, one line each, with the schema's own default.
    for (const name of [...Object.keys(envSchema.shape), 'NODE_ENV']) {
      assert.match(run.stdout(), new RegExp(`^  ${name}\\b`, 'm'), `--help misses ${name}`);
    }
    assert.match(run.stdout(), /^ {2}BODY_LIMIT_BYTES +.*\(default 20971520\)$/m);
    assert.match(run.stdout(), /^ {2}AFFINITY_TTL_SECONDS +.*\(default 3600\)$/m);
    const unknown = start({}, ['--port=1']);
    assert.equal(await unknown.exited, 2);
    assert.match(unknown.stderr(), /^switchyard: unknown argument "--port=1"; run with --help/);
  });

  test('NODE_ENV=production without REDIS_URL serves with one process and says how to use every core', async () => {
    const port = await freePort();
    const run = start({ NODE_ENV: 'production', PORT: String(port), DATABASE_URL: `sqlite:${join(directory, 'prod.db')}` });
    try {
      await run.serving();
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
      assert.match(run.stdout(), new RegExp(`Console: +http://127\\.0\\.0\\.1:${port}/console`));
      if (availableParallelism() > 1) {
        assert.match(
          run.stdout(),
          new RegExp(`1 process on a ${availableParallelism()}-core machine; to use every core, set REDIS_URL=redis://… and WORKERS=${availableParallelism()}`),
        );
      }
      assert.match(run.stdout(), /Add a channel/);
      assert.equal(await run.stop(), 0, 'SIGTERM drains and exits 0');
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  test('a busy port is one line and exit 1, and the admin token it generated is shown at the next start until used', async () => {
    const database = `sqlite:${join(directory, 'busy.db')}`;
    const blocker = await listenOn(0);
    const busyPort = (blocker.address() as { port: number }).port;
    try {
      const failed = start({ PORT: String(busyPort), DATABASE_URL: database });
      assert.equal(await failed.exited, 1);
      assert.equal(
        failed.stderr(),
        `switchyard: 127.0.0.1:${busyPort} is already in use (another Switchyard or program listens there): stop it, or set PORT to a free port.\n`,
      );
      assert.doesNotMatch(failed.stdout(), /GATEWAY_ADMIN_TOKEN=/, 'a token shown by a start that failed');
    } finally {
      blocker.close();
    }

    const port = await freePort();
    const second = start({ PORT: String(port), DATABASE_URL: database });
    await second.serving();
    const token = /GATEWAY_ADMIN_TOKEN=(sya-\w+)/.exec(second.stdout())?.[1];
    assert.ok(token, `no token at the second start: ${second.stdout()}`);
    assert.equal(await second.stop(), 0);

    // Not used yet: shown again. Then used once: never again.
    const third = start({ PORT: String(port), DATABASE_URL: database });
    await third.serving();
    assert.match(third.stdout(), new RegExp(`GATEWAY_ADMIN_TOKEN=${token}`));
    const response = await fetch(`http://127.0.0.1:${port}/api/admin/groups`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200);
    assert.equal(await third.stop(), 0);

    const fourth = start({ PORT: String(port), DATABASE_URL: database });
    await fourth.serving();
    assert.doesNotMatch(fourth.stdout(), /GATEWAY_ADMIN_TOKEN=sya-/);
    assert.match(fourth.stdout(), /Add a channel/, 'the store has no channel yet');
    assert.equal(await fourth.stop(), 0);
  });

  test('a bad config file is one line and exit 2; channels from a good one drop the "add a channel" step', async () => {
    const bad = join(directory, 'bad.yaml');
    writeFileSync(bad, 'channels: [ {name: x\n');
    const failed = start({ PORT: String(await freePort()), DATABASE_URL: `sqlite:${join(directory, 'cfg.db')}`, GATEWAY_CONFIG: bad });
    assert.equal(await failed.exited, 2);
    assert.match(failed.stderr(), /^switchyard: .*bad\.yaml is not valid YAML/);
    assert.equal(failed.stderr().trim().split('\n').length, 1, failed.stderr());

    const good = join(directory, 'good.yaml');
    writeFileSync(
      good,
      [
        'channels:',
        ...['a', 'b', 'c'].flatMap((name) => [
          `  - name: ${name}`,
          '    provider: openai',
          '    baseUrl: http://127.0.0.1:9/v1',
          '    apiKey: sk-test',
          '    models: [m]',
        ]),
      ].join('\n'),
    );
    const port = await freePort();
    const run = start({
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(directory, 'cfg.db')}`,
      GATEWAY_CONFIG: good,
      GATEWAY_ADMIN_TOKEN: 'admin-token-0123456789',
    });
    try {
      await run.serving();
      assert.match(run.stdout(), /3 channels, 0 keys/);
      assert.doesNotMatch(run.stdout(), /Add a channel/);
      assert.match(run.stdout(), /Create a key/);
      assert.doesNotMatch(run.stdout(), /admin-token-0123456789/, 'a configured token is never printed');
      assert.equal(await run.stop(), 0, 'SIGTERM drains and exits 0');
    } finally {
      run.child.kill('SIGKILL');
    }
  });
});

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function freePort(): Promise<number> {
  const server = await listenOn(0);
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
