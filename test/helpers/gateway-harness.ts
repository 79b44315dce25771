import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { GatewayOptions, RunningGateway } from '../../src/startup/gateway-options.ts';
import { startGateway } from '../../src/startup/start-gateway.ts';
import { startProviderSimulator, type ProviderSimulator, type ProviderSimulatorOptions } from '../simulator/provider-simulator.ts';

export const ADMIN_TOKEN = 'sya-test-admin-token-0123456789';
export const UPSTREAM_SECRET = 'sk-upstream-secret-ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export interface Harness {
  gateway: RunningGateway;
  simulator: ProviderSimulator;
  url: string;
  databasePath: string;
  /** Calls the admin API; throws with the body on an unexpected status. */
  admin<T = any>(method: string, path: string, body?: unknown, expectStatus?: number): Promise<T>;
  /** Creates a channel of the given kind pointing at the simulator. */
  addChannel(input: {
    provider: 'openai' | 'anthropic' | 'gemini' | 'azure' | 'vertex' | 'bedrock' | 'cohere' | 'jina';
    models: string[];
    groups?: string[];
    [key: string]: unknown;
  }): Promise<any>;
  /** Creates a key and returns its secret. */
  addKey(input?: { group?: string; [key: string]: unknown }): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

/** A real gateway (temp SQLite file) in front of a real provider simulator, both on random ports. */
export async function startHarness(overrides: Partial<GatewayOptions> = {}, simulatorOptions: ProviderSimulatorOptions = {}): Promise<Harness> {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-test-'));
  const databasePath = join(directory, 'gateway.db');
  const simulator = await startProviderSimulator(simulatorOptions);
  const gateway = await startGateway({
    port: 0,
    host: '127.0.0.1',
    databaseUrl: `sqlite:${databasePath}`,
    adminToken: ADMIN_TOKEN,
    bodyLimitBytes: 1024 * 1024,
    altPrefix: 'antigravity',
    upstream: { connectMs: 2000, firstByteMs: 5000, idleMs: 5000 },
    maxAttempts: 3,
    retryStatuses: [408, 429, 500, 502, 503, 504, 529],
    logger: pino({ level: 'silent' }),
    // Most tests create models without prices and are about something else; the pricing tests ask for it.
    strictPricing: false,
    ...overrides,
  });

  const admin = async (method: string, path: string, body?: unknown, expectStatus?: number) => {
    const response = await fetch(`${gateway.url}/api/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const parsed = text === '' ? undefined : JSON.parse(text);
    if (expectStatus !== undefined ? response.status !== expectStatus : response.status >= 400) {
      throw new Error(`admin ${method} ${path} answered ${response.status}: ${text}`);
    }
    return parsed;
  };

  let channelCount = 0;
  let keyCount = 0;
  return {
    gateway,
    simulator,
    url: gateway.url,
    databasePath,
    admin,
    addChannel(input) {
      channelCount += 1;
      const baseUrl = input.provider === 'openai' ? `${simulator.url}/v1` : simulator.url;
      return admin('POST', '/channels', { name: `channel-${channelCount}`, baseUrl, apiKey: UPSTREAM_SECRET, groups: ['default'], ...input });
    },
    async addKey(input = {}) {
      keyCount += 1;
      const created = await admin('POST', '/keys', { name: `key-${keyCount}`, group: 'default', ...input });
      return { id: created.id, key: created.key };
    },
    async close() {
      await gateway.close();
      await simulator.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
