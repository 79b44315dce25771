import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, launch, LaunchError, type Launched } from './launch.ts';
import { clientAuth, type Target } from './targets.ts';
import { PROFILES } from './upstream-payloads.ts';

export const ADMIN_TOKEN = 'sya-bench-admin-token-0123456789abcdef';
const UPSTREAM_SECRET = 'sk-bench-upstream';
/** The gateway under test and the peers share this core; the upstream and the load use the other. */
export const GATEWAY_CPU = '1';
export const LOAD_CPU = '0';

/**
 * Pins this process (the load generator and the c=1 / SSE clients) to LOAD_CPU, beside the
 * upstream, as `npm run bench` does; false when taskset is unavailable. Unpinned, the quick
 * scripts' clients could run on the gateways' core, unlike the full run's.
 */
export function pinLoadGenerator(): boolean {
  try {
    execFileSync('taskset', ['-a', '-pc', LOAD_CPU, String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface Systems {
  upstream: Launched;
  proxy: Launched;
  switchyard: Launched;
  /** A second Switchyard built from another checkout (`baseline`), for before/after in the same run. */
  baseline: Launched | undefined;
  portkey: Launched | undefined;
  portkeyError: string | undefined;
  targets: Target[];
  stop(): Promise<void>;
}

/** Starts the bench upstream, the minimal proxy, Switchyard (configured) and Portkey. */
export interface SystemOptions {
  /** Start Portkey too (default true). */
  peer?: boolean;
  /** Extra node flags for Switchyard (e.g. `--cpu-prof`). */
  nodeFlags?: string[];
  /** Extra environment for Switchyard. */
  env?: Record<string, string>;
  /**
   * Another checkout whose `dist/` is already built (e.g. a worktree of main): started beside
   * Switchyard with the same flags and configuration, as targets `base` and `base-oa-an`, so a
   * change is measured before and after within the same rounds (the only fair A/B on a noisy box).
   */
  baseline?: string;
}

export async function startSystems(repoRoot: string, log: (line: string) => void, options: SystemOptions = {}): Promise<Systems> {
  const started: Launched[] = [];
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
  const stop = async () => {
    for (const process of started.reverse()) await process.stop();
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    const upstream = await launch({
      name: 'bench-upstream',
      cwd: repoRoot,
      cpus: LOAD_CPU,
      args: ['--import', 'tsx', 'bench/bench-upstream.ts', '--port', '0'],
      ready: { printsUrl: true },
    });
    started.push(upstream);
    const proxy = await launch({
      name: 'minimal-proxy',
      cwd: repoRoot,
      cpus: GATEWAY_CPU,
      args: ['--import', 'tsx', 'bench/minimal-proxy.ts', '--port', '0', '--upstream', upstream.url],
      ready: { printsUrl: true },
    });
    started.push(proxy);

    const switchyardPort = await freePort();
    const switchyard = await launch({
      name: 'switchyard',
      cwd: repoRoot,
      cpus: GATEWAY_CPU,
      args: [...(options.nodeFlags ?? []), 'dist/main.js'],
      env: {
        PORT: String(switchyardPort),
        HOST: '127.0.0.1',
        DATABASE_URL: `sqlite:${join(directory, 'bench.db')}`,
        GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
        WORKERS: '1',
        ...options.env,
      },
      ready: { url: `http://127.0.0.1:${switchyardPort}`, path: '/healthz' },
    });
    started.push(switchyard);
    const key = await configureSwitchyard(switchyard.url, upstream.url);
    log(`switchyard configured: 2 channels, key in group "default", prices for ${Object.keys(PROFILES).length * 2} models`);

    let baseline: Launched | undefined;
    let baselineKey = '';
    if (options.baseline !== undefined) {
      const baselinePort = await freePort();
      baseline = await launch({
        name: 'switchyard-baseline',
        cwd: options.baseline,
        cpus: GATEWAY_CPU,
        args: [...(options.nodeFlags ?? []), 'dist/main.js'],
        env: {
          PORT: String(baselinePort),
          HOST: '127.0.0.1',
          DATABASE_URL: `sqlite:${join(directory, 'baseline.db')}`,
          GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
          LOG_LEVEL: 'warn',
          WORKERS: '1',
          ...options.env,
        },
        ready: { url: `http://127.0.0.1:${baselinePort}`, path: '/healthz' },
      });
      started.push(baseline);
      baselineKey = await configureSwitchyard(baseline.url, upstream.url);
      log(`baseline switchyard from ${options.baseline} configured the same way`);
    }

    let portkey: Launched | undefined;
    let portkeyError: string | undefined;
    if (options.peer !== false)
      try {
        const portkeyPort = await freePort();
        portkey = await launch({
          name: 'portkey',
          cwd: repoRoot,
          cpus: GATEWAY_CPU,
          args: ['bench/node_modules/@portkey-ai/gateway/build/start-server.js', `--port=${portkeyPort}`, '--headless'],
          env: { NODE_ENV: 'production' },
          ready: { url: `http://127.0.0.1:${portkeyPort}`, path: '/' },
        });
        started.push(portkey);
      } catch (error) {
        portkeyError = error instanceof LaunchError ? error.message.split('\n')[0] : (error as Error).message;
        log(`portkey did not start: ${portkeyError}`);
      }

    const sy = (
      id: string,
      label: string,
      client: Target['client'],
      modelPrefix: Target['modelPrefix'],
      system: Launched = switchyard,
      systemKey = key,
    ): Target => ({
      id,
      label,
      baseUrl: system.url,
      client,
      modelPrefix,
      headers: clientAuth(client, systemKey),
      pid: system.pid,
    });
    const targets: Target[] = [
      {
        id: 'direct',
        label: 'direct',
        baseUrl: upstream.url,
        client: 'openai',
        modelPrefix: 'oa',
        headers: clientAuth('openai', UPSTREAM_SECRET),
        pid: undefined,
      },
      {
        id: 'proxy',
        label: 'minimal proxy',
        baseUrl: proxy.url,
        client: 'openai',
        modelPrefix: 'oa',
        headers: clientAuth('openai', UPSTREAM_SECRET),
        pid: proxy.pid,
      },
      sy('switchyard', 'Switchyard (OpenAI → OpenAI)', 'openai', 'oa'),
      sy('sy-oa-an', 'Switchyard OpenAI → Anthropic', 'openai', 'an'),
      sy('sy-an-oa', 'Switchyard Anthropic → OpenAI', 'anthropic', 'oa'),
      sy('sy-gm-oa', 'Switchyard Gemini → OpenAI', 'gemini', 'oa'),
    ];
    if (baseline) {
      targets.push(sy('base', 'baseline Switchyard (OpenAI → OpenAI)', 'openai', 'oa', baseline, baselineKey));
      targets.push(sy('base-oa-an', 'baseline Switchyard OpenAI → Anthropic', 'openai', 'an', baseline, baselineKey));
    }
    if (portkey) {
      targets.push({
        id: 'portkey',
        label: 'Portkey 1.15.2',
        baseUrl: portkey.url,
        client: 'openai',
        modelPrefix: 'oa',
        headers: { ...clientAuth('openai', UPSTREAM_SECRET), 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${upstream.url}/v1` },
        pid: portkey.pid,
      });
    }
    return { upstream, proxy, switchyard, baseline, portkey, portkeyError, targets, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Two channels (OpenAI, Anthropic) on the bench upstream, prices, and one key with a balance. */
export async function configureSwitchyard(url: string, upstreamUrl: string): Promise<string> {
  const admin = async (path: string, body: unknown) => {
    const response = await fetch(`${url}/api/admin${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 400) throw new Error(`admin POST ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const profiles = Object.keys(PROFILES);
  await admin('/channels', {
    name: 'bench-openai',
    provider: 'openai',
    baseUrl: `${upstreamUrl}/v1`,
    apiKey: UPSTREAM_SECRET,
    models: profiles.map((p) => `oa-${p}`),
    groups: ['default'],
  });
  await admin('/channels', {
    name: 'bench-anthropic',
    provider: 'anthropic',
    baseUrl: upstreamUrl,
    apiKey: UPSTREAM_SECRET,
    models: profiles.map((p) => `an-${p}`),
    groups: ['default'],
  });
  for (const model of profiles.flatMap((p) => [`oa-${p}`, `an-${p}`])) await admin('/prices', { model, input: 0.15, output: 0.6 });
  const key = await admin('/keys', { name: 'bench', group: 'default', balance: 1_000_000 });
  return key.key as string;
}
