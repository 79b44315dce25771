import cluster from 'node:cluster';
import pino from 'pino';
import { applyConfigFile } from './config/apply-config-file.ts';
import { loadConfig } from './config/load-config.ts';
import type { Config } from './config/config-schema.ts';
import { startGateway } from './start-gateway.ts';

/** How long SIGTERM waits for open streams before closing them. */
const DRAIN_TIMEOUT_MS = 30_000;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const logger = pino({ level: config.logLevel });
  if (config.workers > 1 && cluster.isPrimary) {
    logger.error('WORKERS > 1 is not supported yet: run one process per instance.');
    process.exit(1);
  }

  const gateway = await startGateway({
    port: config.port,
    host: config.host,
    databaseUrl: config.databaseUrl,
    adminToken: config.adminToken,
    gatewaySecret: config.gatewaySecret,
    bodyLimitBytes: config.bodyLimitBytes,
    altPrefix: config.altPrefix,
    upstream: {
      connectMs: config.upstreamConnectTimeoutMs,
      firstByteMs: config.upstreamFirstByteTimeoutMs,
      idleMs: config.streamIdleTimeoutMs,
    },
    trustedProxies: config.trustedProxies,
    strictPricing: config.strictPricing,
    logRetentionDays: config.logRetentionDays,
    maxAttempts: 3,
    retryStatuses: [408, 429, 500, 502, 503, 504, 529],
    applyConfig: config.configFile
      ? async (store) => {
          const summary = await applyConfigFile({ store, path: config.configFile as string, env: process.env });
          logger.info({ summary }, `applied ${config.configFile}`);
        }
      : undefined,
    logger,
  });

  logger.info({ url: gateway.url, database: config.databaseUrl.startsWith('sqlite') ? config.databaseUrl : 'postgres' }, 'Switchyard is serving');
  if (gateway.generatedAdminToken) printFirstStart(gateway.url, gateway.generatedAdminToken);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: draining open requests (at most ${DRAIN_TIMEOUT_MS / 1000} s)`);
    const timer = setTimeout(() => {
      logger.warn('drain timed out; closing the remaining connections');
      process.exit(0);
    }, DRAIN_TIMEOUT_MS);
    timer.unref();
    await gateway.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

function printFirstStart(url: string, token: string): void {
  // Printed once, to the terminal only (not through the structured log, which may be shipped elsewhere).
  process.stdout.write(
    [
      '',
      'Switchyard generated an admin token. It is shown only now; only its hash is stored.',
      '',
      `    GATEWAY_ADMIN_TOKEN=${token}`,
      '',
      'Next steps:',
      `  1. Add a channel:  curl -s ${url}/api/admin/channels -H "authorization: Bearer ${token}" -H 'content-type: application/json' \\`,
      `       -d '{"name":"openai","provider":"openai","baseUrl":"https://api.openai.com/v1","apiKey":"sk-...","models":["gpt-4o-mini"],"groups":["default"]}'`,
      `  2. Create a key:   curl -s ${url}/api/admin/keys -H "authorization: Bearer ${token}" -H 'content-type: application/json' -d '{"name":"me","group":"default"}'`,
      `  3. Point a client at ${url}/v1 (OpenAI SDKs), ${url} (Claude Code, Gemini CLI); see README.md.`,
      '',
    ].join('\n'),
  );
}

void main();
