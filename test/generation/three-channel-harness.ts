import { after, before } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

export interface ThreeChannelHarness {
  harness: Harness;
  /** A key of the default group, which every channel serves. */
  key: string;
  /** Posts JSON to the gateway; the status and the parsed reply. */
  post(path: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: any }>;
}

/**
 * A gateway with one channel of each client protocol's provider (models `m-openai`,
 * `m-anthropic`, `m-gemini`): a request names the passthrough lane or a translated one by model.
 */
export async function startThreeChannelHarness(): Promise<ThreeChannelHarness> {
  const harness = await startHarness();
  await harness.addChannel({ provider: 'openai', models: ['m-openai'] });
  await harness.addChannel({ provider: 'anthropic', models: ['m-anthropic'] });
  await harness.addChannel({ provider: 'gemini', models: ['m-gemini'] });
  const { key } = await harness.addKey();
  return {
    harness,
    key,
    async post(path, headers, body) {
      const response = await fetch(`${harness.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    },
  };
}

/**
 * The harness for the enclosing `describe`: started in its `before`, closed in its `after`.
 * Read its fields inside tests only (they are filled in when the suite starts).
 */
export function useThreeChannelHarness(): ThreeChannelHarness {
  const live = {} as ThreeChannelHarness;
  before(async () => {
    Object.assign(live, await startThreeChannelHarness());
  });
  after(() => live.harness.close());
  return live;
}
