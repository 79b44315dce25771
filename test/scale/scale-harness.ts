import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import type { GatewayOptions, RunningGateway } from '../../src/startup/gateway-options.ts';
import { startGateway } from '../../src/startup/start-gateway.ts';
import { ADMIN_TOKEN, UPSTREAM_SECRET } from '../helpers/gateway-harness.ts';
import { startProviderSimulator, type ProviderSimulator } from '../simulator/provider-simulator.ts';
import { deleteKeys, postgresTestUrl, redisTestUrl, uniquePrefix } from './redis-test-support.ts';

export const GATEWAY_SECRET = 'scale-test-gateway-secret-0123456789';

export interface ScaleHarness {
  instances: RunningGateway[];
  simulator: ProviderSimulator;
  databaseUrl: string;
  redisPrefix: string;
  /** Calls the admin API of one instance; throws on an unexpected status. */
  admin<T = any>(instance: number, method: string, path: string, body?: unknown, expectStatus?: number): Promise<T>;
  /** Runs SQL against the shared database. */
  query<T = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * Several real gateways in this process sharing one fresh PostgreSQL database and one Redis
 * (under a key prefix of their own), in front of one provider simulator. Instances start one
 * after another, as a rolling deployment would.
 */
export async function startScaleHarness(
  input: {
    instances?: number;
    redisUrl?: string;
    overrides?: Partial<GatewayOptions>;
    /** The PostgreSQL server the fresh database is made on (a test's own); default the shared one. */
    postgresUrl?: string;
    /** How the gateways reach the database (e.g. through a proxy the test can cut); default direct. */
    gatewayDatabaseUrl?: (databaseUrl: string) => string;
  } = {},
): Promise<ScaleHarness> {
  const serverUrl = input.postgresUrl ?? postgresTestUrl();
  const onServer = async (sql: string) => {
    const adminClient = new pg.Client({ connectionString: serverUrl });
    await adminClient.connect();
    try {
      await adminClient.query(sql);
    } finally {
      await adminClient.end();
    }
  };
  const databaseName = `switchyard_scale_${randomBytes(6).toString('hex')}`;
  await onServer(`CREATE DATABASE ${databaseName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const databaseUrl = url.toString();
  // The test's own connection; a test that restarts its PostgreSQL gets a fresh one afterwards.
  let raw: pg.Client | undefined;
  const rawClient = async (): Promise<pg.Client> => {
    if (raw) return raw;
    const fresh = new pg.Client({ connectionString: databaseUrl });
    fresh.on('error', () => {
      if (raw === fresh) raw = undefined;
    });
    await fresh.connect();
    raw = fresh;
    return fresh;
  };

  const simulator = await startProviderSimulator();
  const redisPrefix = uniquePrefix('scale');
  const instances: RunningGateway[] = [];
  for (let index = 0; index < (input.instances ?? 2); index += 1) {
    instances.push(
      await startGateway({
        port: 0,
        host: '127.0.0.1',
        databaseUrl: input.gatewayDatabaseUrl?.(databaseUrl) ?? databaseUrl,
        redisUrl: input.redisUrl ?? redisTestUrl(),
        redisPrefix,
        adminToken: ADMIN_TOKEN,
        gatewaySecret: GATEWAY_SECRET,
        bodyLimitBytes: 1024 * 1024,
        altPrefix: 'antigravity',
        // Most scale tests serve models without prices; the ones about money set prices (or this) themselves.
        strictPricing: false,
        upstream: { connectMs: 2000, firstByteMs: 5000, idleMs: 5000 },
        maxAttempts: 3,
        retryStatuses: [408, 429, 500, 502, 503, 504, 529],
        logger: pino({ level: process.env.SCALE_TEST_LOG ?? 'silent', base: { instance: index } }),
        ...input.overrides,
      }),
    );
  }

  const admin = async (instance: number, method: string, path: string, body?: unknown, expectStatus?: number) => {
    const gateway = instances[instance] as RunningGateway;
    const response = await fetch(`${gateway.url}/api/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (expectStatus !== undefined ? response.status !== expectStatus : response.status >= 400) {
      throw new Error(`admin ${method} ${path} on instance ${instance} answered ${response.status}: ${text}`);
    }
    return text === '' ? undefined : JSON.parse(text);
  };

  return {
    instances,
    simulator,
    databaseUrl,
    redisPrefix,
    admin,
    async query(sql, values) {
      return (await (await rawClient()).query(sql, values as unknown[])).rows;
    },
    async close() {
      await Promise.all(instances.map((instance) => instance.close()));
      await deleteKeys(input.redisUrl ?? redisTestUrl(), redisPrefix).catch(() => undefined);
      await simulator.close();
      await raw?.end().catch(() => undefined);
      await onServer(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    },
  };
}

/** Adds an OpenAI-style channel pointing at the simulator, through instance `instance`. */
export function addSimulatorChannel(harness: ScaleHarness, instance: number, extra: Record<string, unknown> = {}): Promise<any> {
  return harness.admin(instance, 'POST', '/channels', {
    name: `sim-${randomBytes(3).toString('hex')}`,
    provider: 'openai',
    baseUrl: `${harness.simulator.url}/v1`,
    apiKey: UPSTREAM_SECRET,
    models: ['gpt-4o-mini'],
    groups: ['default'],
    ...extra,
  });
}

/** One chat completion through `baseUrl` (max_tokens 100); the status and the error code, if any. */
export async function chat(baseUrl: string, key: string): Promise<{ status: number; code: string | undefined }> {
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 }),
  });
  const body = (await response.json()) as { error?: { code?: string } };
  return { status: response.status, code: response.headers.get('x-switchyard-error-code') ?? body.error?.code ?? undefined };
}
