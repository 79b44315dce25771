import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { RedisTarget } from '../kv/redis-target.ts';

export interface PrimaryOptions {
  workers: number;
  logger: Logger;
  /** How long workers get to drain after SIGTERM before they are killed. */
  drainTimeoutMs: number;
  /** A worker that dies sooner than this after starting is restarted only after a pause. */
  crashLoopMs?: number;
}

/** The problem with WORKERS > 1 in this configuration, or undefined when it is sound. */
export function workersProblem(input: { workers: number; redisTarget: RedisTarget | undefined }): string | undefined {
  if (input.workers <= 1 || input.redisTarget !== undefined) return undefined;
  return (
    `WORKERS=${input.workers} needs Redis (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES). Without Redis each worker process keeps its own rate-limit windows, ` +
    'concurrency slots, balances and spend caps (a key could spend its whole balance once per worker and get ' +
    `${input.workers}x its rate limit), its own circuit breakers, and never hears of keys or channels changed ` +
    'through another worker. Set REDIS_URL=redis://host:6379 (the same for every worker and instance), or set WORKERS=1.'
  );
}

/**
 * The cluster primary: forks the workers (which share the listening port), restarts one that
 * crashes, and on SIGTERM/SIGINT tells every worker to drain, waits for them (at most the
 * drain timeout plus a margin), then exits. Migrations have already run here, once, before.
 */
export function runPrimary(options: PrimaryOptions): void {
  const { logger } = options;
  const crashLoopMs = options.crashLoopMs ?? 5_000;
  const startedAt = new Map<number, number>();
  let stopping = false;

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };
  for (let index = 0; index < options.workers; index += 1) fork();

  cluster.on('exit', (worker: Worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info('all workers have stopped');
        process.exit(0);
      }
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'worker died; starting a new one');
    if (lived < crashLoopMs) setTimeout(fork, crashLoopMs).unref();
    else fork();
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    logger.info({ workers: workers.length }, `${signal}: draining every worker`);
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker.process.kill('SIGTERM');
    setTimeout(() => {
      logger.warn('workers did not stop in time; killing them');
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, options.drainTimeoutMs + 5_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
