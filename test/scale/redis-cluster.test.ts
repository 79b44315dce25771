import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startScaleHarness, type ScaleHarness } from './scale-harness.ts';
import { runFailoverScenario } from './failover-scenario.ts';
import { startClusterTopology, type ClusterTopology, type RedisNodeProcess } from './redis-topology.ts';

/**
 * A six-node Redis Cluster (three primaries, three replicas; real processes) and four gateway
 * instances under steady load; the primary of the shared wallet's slot is killed and its
 * replica takes over. The kv's scripts touch keys of one hash tag, so they run in a Cluster.
 */
// Its process once stayed alive after passing: ioredis re-armed a Cluster's periodic slots refresh
// after close (src/kv/close-redis.ts says how, test/kv/redis-cluster-kv.test.ts proves the fix).
describe('Redis Cluster, four instances, the primary of the wallet slot killed', () => {
  test('slot failover followed without a restart; no charge lost or doubled; revocation reaches everyone', async () => {
    let topology: ClusterTopology | undefined;
    let harness: ScaleHarness | undefined;
    try {
      topology = await startClusterTopology({ basePort: 7310 });
      const t = topology;
      harness = await startScaleHarness({
        instances: 4,
        overrides: { redisTarget: { mode: 'cluster', nodes: t.nodes.slice(0, 2).map(({ host, port }) => ({ host, port })), tls: false } },
      });
      const prefix = harness.redisPrefix;
      let victim: RedisNodeProcess | undefined;
      let slotKey = '';
      const figures = await runFailoverScenario({
        harness,
        mode: 'local',
        kill: async (walletKey) => {
          slotKey = `${prefix}{${walletKey}}`;
          victim = await t.primaryFor(slotKey);
          await victim.kill();
        },
        promoted: async () => {
          const now = await t.primaryFor(slotKey).catch(() => victim);
          return now !== undefined && now.port !== victim?.port;
        },
      });
      assert.ok(victim, 'a primary was killed');
      console.log(`[figures cluster local] ${JSON.stringify(figures)}`);
    } finally {
      await harness?.close();
      await topology?.dispose();
    }
  });
});
