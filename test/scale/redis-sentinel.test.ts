import { describe, test } from 'node:test';
import { startScaleHarness, type ScaleHarness } from './scale-harness.ts';
import { runFailoverScenario } from './failover-scenario.ts';
import { startSentinelTopology, type SentinelTopology } from './redis-topology.ts';

/**
 * Redis behind Sentinel (a primary, a replica, three sentinels; real processes) and four gateway
 * instances under steady load; the primary is killed (SIGKILL) and the replica promoted. One
 * variant per REDIS_OUTAGE_MODE; the refuse mode only with SCALE_HEAVY=1 (CI runs one).
 */
const modes = process.env.SCALE_HEAVY === '1' ? (['local', 'refuse'] as const) : (['local'] as const);

for (const [index, mode] of modes.entries()) {
  describe(`Redis behind Sentinel, four instances, primary killed (REDIS_OUTAGE_MODE=${mode})`, () => {
    test('failover followed by every instance without a restart; no charge lost or doubled; revocation reaches everyone', async () => {
      let topology: SentinelTopology | undefined;
      let harness: ScaleHarness | undefined;
      try {
        topology = await startSentinelTopology({ basePort: 7320 + index * 2, sentinelBasePort: 26391 + index * 3 });
        const sentinels = topology.sentinels.map(({ host, port }) => ({ host, port }));
        harness = await startScaleHarness({
          instances: 4,
          overrides: { redisTarget: { mode: 'sentinel', sentinels, name: topology.name, tls: false }, redisOutageMode: mode },
        });
        const t = topology;
        const before = await t.currentPrimary();
        const figures = await runFailoverScenario({
          harness,
          mode,
          kill: () => t.primary.kill(),
          promoted: async () => (await t.currentPrimary().catch(() => before)).port !== before.port,
        });
        console.log(`[figures sentinel ${mode}] ${JSON.stringify(figures)}`);
      } finally {
        await harness?.close();
        await topology?.dispose();
      }
    });
  });
}
