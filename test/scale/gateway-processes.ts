import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import pg from 'pg';
import { ADMIN_TOKEN } from '../helpers/gateway-harness.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { GATEWAY_SECRET } from './scale-harness.ts';
import { deleteKeys, postgresTestUrl, redisTestUrl, uniquePrefix } from './redis-test-support.ts';

/** One gateway as operators run it (`node src/main.ts`), in a process of its own that a test can SIGKILL. */
export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed (its JSON log lines, at LOG_LEVEL=info). */
  output(): string;
  exited: Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface GatewayProcesses {
  gateways: GatewayProcess[];
  databaseUrl: string;
  redisPrefix: string;
  admin<T = any>(gateway: number, method: string, path: string, body?: unknown): Promise<T>;
  query<T = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * `count` gateway processes on one fresh PostgreSQL database (`databaseUrl` overrides where it
 * lives: a test's own PostgreSQL server) and the shared Redis under a prefix of their own. The
 * first starts alone (it runs the migrations), the others after it.
 */
export async function startGatewayProcesses(input: { count: number; env?: Record<string, string>; postgresUrl?: string }): Promise<GatewayProcesses> {
  const serverUrl = input.postgresUrl ?? postgresTestUrl();
  const adminClient = new pg.Client({ connectionString: serverUrl });
  await adminClient.connect();
  const databaseName = `switchyard_procs_${randomBytes(6).toString('hex')}`;
  await adminClient.query(`CREATE DATABASE ${databaseName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const databaseUrl = url.toString();
  const redisPrefix = uniquePrefix('procs');
  const gateways: GatewayProcess[] = [];
  const start = async () => {
    const gateway = await spawnGateway({
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisTestUrl(),
      REDIS_KEY_PREFIX: redisPrefix,
      GATEWAY_SECRET,
      STRICT_PRICING: 'false',
      ...input.env,
    });
    gateways.push(gateway);
    return gateway;
  };
  let raw: pg.Client | undefined;
  try {
    await start();
    await Promise.all(Array.from({ length: input.count - 1 }, start));
    raw = new pg.Client({ connectionString: databaseUrl });
    await raw.connect();
  } catch (error) {
    await Promise.all(gateways.map((gateway) => gateway.kill()));
    throw error;
  }
  const client = raw;
  return {
    gateways,
    databaseUrl,
    redisPrefix,
    async admin(index, method, path, body) {
      const response = await fetch(`${(gateways[index] as GatewayProcess).url}/api/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (response.status >= 400) throw new Error(`admin ${method} ${path} on gateway ${index} answered ${response.status}: ${text}`);
      return text === '' ? undefined : JSON.parse(text);
    },
    async query(sql, values) {
      return (await client.query(sql, values as unknown[])).rows;
    },
    async close() {
      await Promise.all(gateways.map((gateway) => gateway.kill('SIGTERM')));
      await client.end().catch(() => undefined);
      await deleteKeys(redisTestUrl(), redisPrefix).catch(() => undefined);
      await adminClient.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
      await adminClient.end();
    },
  };
}

async function spawnGateway(env: Record<string, string>): Promise<GatewayProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gateway: GatewayProcess = {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      // A SIGTERM drains; if that outlasts 10 s, it is killed.
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}: ${output}`);
        return (await fetch(`${gateway.url}/readyz`).catch(() => undefined))?.status === 200;
      },
      'the gateway process is ready',
      60_000,
    );
  } catch (error) {
    await gateway.kill();
    throw error;
  }
  return gateway;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
