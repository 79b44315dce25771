import { describe, test } from 'node:test';
import { createRedisProcess, type RedisProcess } from './redis-process.ts';
import { runFailoverScenario } from './failover-scenario.ts';
import { startScaleHarness, type ScaleHarness } from './scale-harness.ts';

const STALL_MS = 10_000;

/**
 * The issue-23 probe's case with four instances: Redis stalls (SIGSTOP, connections stay up,
 * nothing is answered) for 10 s under steady load, then resumes and runs what it had queued.
 * No account is debited twice, timed-out holds are released once, a key revoked during the
 * stall is refused everywhere once the counters are shared again. Heavy: SCALE_HEAVY=1.
 */
describe('Redis stalled for 10 s under four instances (SCALE_HEAVY=1)', { skip: process.env.SCALE_HEAVY !== '1' }, () => {
  test('served or refused as retryable throughout; the wallet and the usage rows agree to the micro-dollar afterwards', async () => {
    let server: RedisProcess | undefined;
    let harness: ScaleHarness | undefined;
    try {
      server = await createRedisProcess({ persistent: false });
      await server.start();
      const redis = server;
      harness = await startScaleHarness({ instances: 4, redisUrl: redis.url });
      let resumed = false;
      const figures = await runFailoverScenario({
        harness,
        mode: 'local',
        kill: async () => {
          redis.signal('SIGSTOP');
          setTimeout(() => {
            redis.signal('SIGCONT');
            resumed = true;
          }, STALL_MS);
        },
        promoted: async () => resumed,
      });
      console.log(`[figures stall 10 s] ${JSON.stringify(figures)}`);
    } finally {
      await harness?.close();
      await server?.dispose();
    }
  });
});
