import { Writable } from 'node:stream';
import pino from 'pino';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import type { GatewayOptions } from '../../src/startup/gateway-options.ts';
import { startHostileUpstream, type HostileUpstream } from './hostile-upstream.ts';

/** The secret every hostile channel holds; no answer, log row or log line may ever contain it. */
export const CHANNEL_SECRET = 'sk-hostile-channel-secret-0123456789abcdefXYZ';

export interface SecurityHarness extends Harness {
  upstream: HostileUpstream;
  /** Every line the gateway logged (pino JSON), to search for secrets. */
  logLines(): string;
  /** Adds an OpenAI channel on the hostile upstream. */
  addHostileChannel(input: { models: string[]; [key: string]: unknown }): Promise<any>;
  chat(key: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; text: string; json: any }>;
  balanceOf(keyId: string): Promise<number>;
}

/** A real gateway (the same `startGateway` as production) in front of a hostile upstream on loopback, logging into memory. */
export async function startSecurityHarness(overrides: Partial<GatewayOptions> = {}): Promise<SecurityHarness> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const upstream = await startHostileUpstream();
  const harness = await startHarness({ logger: pino({ level: 'trace' }, sink), ...overrides });
  let count = 0;
  return {
    ...harness,
    upstream,
    logLines: () => lines.join(''),
    addHostileChannel(input) {
      count += 1;
      return harness.admin('POST', '/channels', {
        name: `hostile-${count}`,
        provider: 'openai',
        baseUrl: `${upstream.url}/v1`,
        apiKey: CHANNEL_SECRET,
        groups: ['default'],
        ...input,
      });
    },
    async chat(key, body, headers = {}) {
      const response = await fetch(`${harness.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, text, json };
    },
    async balanceOf(keyId) {
      return (await harness.admin('GET', `/keys/${keyId}`)).balance as number;
    },
    async close() {
      await harness.close();
      await upstream.close();
    },
  };
}

/** Polls until `check` holds (at most `ms`), so tests wait for write-behind batches without fixed sleeps. */
export async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}
