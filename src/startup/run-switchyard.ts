import cluster from 'node:cluster';
import pino, { type Logger } from 'pino';
import { resolveAdminToken } from '../access/admin-token.ts';
import { buildInfo } from '../config/build-info.ts';
import { serveClusterMetrics } from '../cluster/cluster-metrics.ts';
import { runPrimary, workersProblem } from '../cluster/run-primary.ts';
import { applyConfigFile } from '../config/apply-config-file.ts';
import { loadConfig } from '../config/load-config.ts';
import type { Config } from '../config/config-schema.ts';
import { describeStartError } from './describe-start-error.ts';
import { unpricedModels } from '../billing/unpriced-models.ts';
import { startBanner } from './start-banner.ts';
import type { RunningGateway } from './gateway-options.ts';
import { gatewayOptionsFrom } from './gateway-options-from.ts';
import { startGateway } from './start-gateway.ts';
import { createStore } from '../store/create-store.ts';
import { loadGatewaySecret } from '../store/load-gateway-secret.ts';
import { createSecretBox } from '../store/secret-box.ts';
import type { Store } from '../store/store.ts';
import { usageText } from './usage-text.ts';
import { releaseYoungGeneration } from './hold-young-generation.ts';

/**
 * The process `node dist/main.js` starts: `--help`, `--version`, or the gateway (one instance, or
 * with WORKERS=N a cluster primary and its workers). `main.ts` loads this module once the young
 * generation is held (hold-young-generation.ts); it is released when the gateway serves.
 */
export async function runSwitchyard(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h') || args[0] === 'help') {
    process.stdout.write(usageText());
    return;
  }
  if (args.includes('--version') || args.includes('-v')) {
    const info = buildInfo();
    process.stdout.write(`switchyard ${info.version} (${info.commit}, node ${info.node})\n`);
    return;
  }
  if (args.length > 0) fail(`unknown argument ${JSON.stringify(args[0])}; run with --help for usage.`, 2);

  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    const failure = describeStartError(error, { host: '127.0.0.1', port: 8080 });
    fail(failure.message, failure.exitCode);
  }
  const logger = pino({ level: config.logLevel });
  try {
    await run(config, logger);
  } catch (error) {
    const failure = describeStartError(error, { host: config.host, port: config.port });
    logger.debug({ err: error }, 'start failed');
    fail(failure.message, failure.exitCode);
  }
}

/** The primary of a cluster (WORKERS > 1), or one gateway: a worker, or the whole instance. */
async function run(config: Config, logger: Logger): Promise<void> {
  const applyConfig = config.configFile
    ? async (store: Store) => {
        const summary = await applyConfigFile({
          store,
          path: config.configFile as string,
          env: process.env,
          blockPrivateUpstreams: config.blockPrivateUpstreams,
        });
        logger.info({ summary }, `applied ${config.configFile}`);
        for (const warning of summary.warnings ?? []) logger.warn(`${config.configFile}: ${warning}`);
      }
    : undefined;
  if (config.workers > 1 && cluster.isPrimary) return startPrimary(config, logger, applyConfig);
  // Workers: the primary applied the config file already.
  const gateway = await startGateway(gatewayOptionsFrom(config, logger, cluster.isWorker ? undefined : applyConfig));
  logger.info(
    {
      url: gateway.url,
      database: databaseKind(config),
      redis: config.redisTarget === undefined ? false : config.redisTarget.mode,
      version: buildInfo().version,
      ...(cluster.isWorker ? { worker: cluster.worker?.id } : {}),
    },
    'Switchyard is serving',
  );
  drainOnSignals(config, logger, gateway);
  if (cluster.isWorker) return releaseYoungGeneration();
  const [channels, keys, prices, versions] = await Promise.all([
    gateway.store.channels.list(),
    gateway.store.keys.list(),
    gateway.store.prices.list(),
    gateway.store.priceVersions.list(),
  ]);
  const redis = config.redisTarget !== undefined;
  const banner = {
    url: gateway.url,
    database: databaseKind(config),
    workers: 1,
    redis,
    channels: channels.length,
    keys: keys.length,
    unpricedModels: unpricedModels(channels, prices, versions),
    strictPricing: config.strictPricing,
  };
  process.stdout.write(startBanner({ ...banner, pendingAdminToken: gateway.generatedAdminToken }));
  releaseYoungGeneration();
}

/**
 * Once, before any worker starts: migrations, the config file, the first admin token; then the
 * workers. The banner (and the token) only once a worker listens: a start that fails shows
 * nothing it would have to take back, and the token stays pending for the next start.
 */
async function startPrimary(config: Config, logger: Logger, applyConfig: ((store: Store) => Promise<void>) | undefined): Promise<void> {
  const problem = workersProblem(config);
  if (problem) fail(problem, 2);
  const secretKey = loadGatewaySecret({ databaseUrl: config.databaseUrl, gatewaySecret: config.gatewaySecret });
  const store = await createStore({ databaseUrl: config.databaseUrl, secretKey });
  await applyConfig?.(store);
  const { pendingAdminToken } = await resolveAdminToken(store, config.adminToken, createSecretBox(secretKey));
  const [channels, keys, prices, versions] = await Promise.all([store.channels.list(), store.keys.list(), store.prices.list(), store.priceVersions.list()]);
  await store.close();
  logger.info({ workers: config.workers, redis: true }, 'starting workers');
  serveClusterMetrics();
  const url = `http://${config.host}:${config.port}`;
  const banner = {
    url,
    database: databaseKind(config),
    workers: config.workers,
    redis: true,
    channels: channels.length,
    keys: keys.length,
    unpricedModels: unpricedModels(channels, prices, versions),
    strictPricing: config.strictPricing,
  };
  cluster.once('listening', () => process.stdout.write(startBanner({ ...banner, pendingAdminToken })));
  runPrimary({ workers: config.workers, logger, drainTimeoutMs: config.drainTimeoutMs });
}

/** After the drain's deadline, how long the ended requests get to be billed and written (the primary waits 5 s more). */
const CUT_GRACE_MS = 4_000;

/** SIGTERM and SIGINT drain open requests (at most DRAIN_TIMEOUT_MS), then exit. */
function drainOnSignals(config: Config, logger: Logger, gateway: RunningGateway): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: draining open requests (at most ${config.drainTimeoutMs / 1000} s)`);
    const timer = setTimeout(() => {
      // Ended in their protocol (an error event), billed and logged; then close() completes.
      const cut = gateway.cutOpenRequests();
      logger.warn(`drain timed out; ended ${cut} open requests with an error in their protocol`);
      setTimeout(() => process.exit(0), CUT_GRACE_MS).unref();
    }, config.drainTimeoutMs);
    timer.unref();
    await gateway.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

function databaseKind(config: Config): string {
  return config.databaseUrl.startsWith('sqlite') ? config.databaseUrl : 'postgres';
}

function fail(message: string, exitCode: number): never {
  process.stderr.write(`switchyard: ${message}\n`);
  process.exit(exitCode);
}
