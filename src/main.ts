import cluster from 'node:cluster';
import pino from 'pino';
import { runPrimary, workersProblem } from './cluster/run-primary.ts';
import { applyConfigFile } from './config/apply-config-file.ts';
import { loadConfig } from './config/load-config.ts';
import type { Config } from './config/config-schema.ts';
import { resolveAdminToken, startGateway } from './start-gateway.ts';
import { createStore } from './store/create-store.ts';
import { loadGatewaySecret } from './store/load-gateway-secret.ts';
import type { Store } from './store/store.ts';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const logger = pino({ level: config.logLevel });
  const applyConfig = config.configFile
    ? async (store: Store) => {
        const summary = await applyConfigFile({ store, path: config.configFile as string, env: process.env });
        logger.info({ summary }, `applied ${config.configFile}`);
      }
    : undefined;

  if (config.workers > 1 && cluster.isPrimary) {
    const problem = workersProblem(config);
    if (problem) {
      logger.error(problem);
      process.exit(1);
    }
    // Once, before any worker starts: migrations, the config file, the first admin token.
    const store = await createStore({
      databaseUrl: config.databaseUrl,
      secretKey: loadGatewaySecret({ databaseUrl: config.databaseUrl, gatewaySecret: config.gatewaySecret }),
    });
    await applyConfig?.(store);
    const { generatedAdminToken } = await resolveAdminToken(store, config.adminToken);
    await store.close();
    logger.info({ workers: config.workers, redis: true }, 'starting workers');
    if (generatedAdminToken) printFirstStart(`http://${config.host}:${config.port}`, generatedAdminToken);
    runPrimary({ workers: config.workers, logger, drainTimeoutMs: config.drainTimeoutMs });
    return;
  }

  const gateway = await startGateway({
    port: config.port,
    host: config.host,
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisKeyPrefix,
    adminToken: config.adminToken,
    gatewaySecret: config.gatewaySecret,
    bodyLimitBytes: config.bodyLimitBytes,
    altPrefix: config.altPrefix,
    upstream: {
      connectMs: config.upstreamConnectTimeoutMs,
      firstByteMs: config.upstreamFirstByteTimeoutMs,
      idleMs: config.streamIdleTimeoutMs,
      totalMs: config.upstreamTotalTimeoutMs,
    },
    trustedProxies: config.trustedProxies,
    clientIpHeader: config.clientIpHeader,
    serverLimits: config.server,
    revealOtherGroupModels: config.revealOtherGroupModels,
    strictPricing: config.strictPricing,
    logRetentionDays: config.logRetentionDays,
    maxAttempts: 3,
    retryStatuses: [408, 429, 500, 502, 503, 504, 529],
    // Workers: the primary applied it already.
    applyConfig: cluster.isWorker ? undefined : applyConfig,
    logger,
  });

  logger.info(
    {
      url: gateway.url,
      database: config.databaseUrl.startsWith('sqlite') ? config.databaseUrl : 'postgres',
      redis: config.redisUrl !== undefined,
      ...(cluster.isWorker ? { worker: cluster.worker?.id } : {}),
    },
    'Switchyard is serving',
  );
  if (gateway.generatedAdminToken) printFirstStart(gateway.url, gateway.generatedAdminToken);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: draining open requests (at most ${config.drainTimeoutMs / 1000} s)`);
    const timer = setTimeout(() => {
      logger.warn('drain timed out; closing the remaining connections');
      process.exit(0);
    }, config.drainTimeoutMs);
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
