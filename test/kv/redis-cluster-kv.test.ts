import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Cluster } from 'ioredis';
import { createRedisKv } from '../../src/kv/create-redis-kv.ts';
import { closeRedis } from '../../src/kv/close-redis.ts';
import { openRedis, waitForRedis } from '../../src/kv/open-redis.ts';
import { runKvConformance } from './kv-conformance.ts';
import { uniquePrefix } from '../scale/redis-test-support.ts';
import { startClusterTopology, type ClusterTopology } from '../scale/redis-topology.ts';

/**
 * The Redis kv in a real six-node Cluster, with hash tags: every script's keys share a slot (a
 * Cluster refuses a script whose keys are in different slots), and text lookups spanning slots
 * are sent one key each. The same conformance suite as the memory and single-Redis kv.
 */
// In CI's run this file failed about one run in four when another Redis test ran beside it: the
// Cluster client dropped every node right after connecting and stayed closed (status 'close', no
// error). Not yet explained, so it runs with the heavy scale tests only (SCALE_HEAVY=1) until it is.
if (process.env.SCALE_HEAVY !== '1') {
  test('the Redis Cluster kv suite (SCALE_HEAVY=1)', { skip: 'runs with SCALE_HEAVY=1' }, () => {});
} else {
  let topology: ClusterTopology;
  let cluster: Cluster;
  before(async () => {
    // Nothing here is about failover, so a node is not given up on after the topology's default
    // 1.5 s: on a busy 2-core box a starved node's heartbeat can lag that long, and a spurious
    // failover then left a new client not ready within its 10 s (seen about once in five runs of test/kv).
    topology = await startClusterTopology({ basePort: 7340, nodeTimeoutMs: 5_000 });
    cluster = openRedis({ mode: 'cluster', nodes: [{ host: topology.nodes[0]!.host, port: topology.nodes[0]!.port }], tls: false }) as Cluster;
    const errors: string[] = [];
    cluster.on('error', (error: Error) => void errors.push(error.message));
    for (const event of ['connect', 'ready', 'close', 'reconnecting', 'end', '+node', '-node', 'node error', 'refresh'])
      cluster.on(event, (arg: unknown) => void errors.push(`${event}:${arg instanceof Error ? arg.message : ''}`));
    assert.ok(await waitForRedis(cluster, 10_000), `the cluster connection is ready (status ${cluster.status}; errors: ${errors.slice(-12).join(' | ')})`);
  });
  after(async () => {
    await closeRedis(cluster);
    await topology.dispose();
  });

  runKvConformance('redis kv in a Cluster (hash tags)', async () => {
    let time = 1_700_000_000_000;
    const prefix = uniquePrefix('kv');
    // KEYS answers for one node only: ask every primary.
    const keys = async () => (await Promise.all(cluster.nodes('master').map((node) => node.keys(`${prefix}*`)))).flat();
    return {
      kv: createRedisKv(cluster, { prefix, now: () => time, hashTags: true }),
      advanceTime: async (milliseconds) => {
        time += milliseconds;
        for (const key of await keys()) {
          const remaining = await cluster.pttl(key);
          if (remaining < 0) continue;
          if (remaining <= milliseconds) await cluster.del(key);
          else await cluster.pexpire(key, remaining - milliseconds);
        }
      },
      dispose: async () => {
        for (const key of await keys()) await cluster.del(key);
      },
    };
  });

  test('text keys of one lookup live in different slots, and a plain MGET across them is refused', async () => {
    const prefix = uniquePrefix('slots');
    const kv = createRedisKv(cluster, { prefix, hashTags: true });
    const names = Array.from({ length: 8 }, (_, index) => `affinity:k:${index}`);
    await kv.setTexts(names, 'channel-1', 60_000);
    assert.deepEqual(await kv.getTexts([...names, 'affinity:k:absent']), [...names.map(() => 'channel-1'), undefined]);
    const slots = new Set(await Promise.all(names.map((name) => cluster.call('CLUSTER', 'KEYSLOT', `${prefix}{${name}}`))));
    assert.ok(slots.size > 1, 'the lookup spans several slots');
    await assert.rejects(cluster.mget(...names.map((name) => `${prefix}{${name}}`)), /CROSSSLOT|slot/i);
  });

  // Last in this file: it stops every node for a moment.
  test('closing a Cluster connection while a slots refresh is in flight leaves no timer armed (the process can exit)', async () => {
    const client = openRedis({ mode: 'cluster', nodes: [{ host: topology.nodes[0]!.host, port: topology.nodes[0]!.port }], tls: false }) as Cluster;
    const errors: string[] = [];
    client.on('error', (error: Error) => void errors.push(error.message));
    // A short period, so a periodic refresh is surely in flight when the nodes stop answering.
    client.options.slotsRefreshInterval = 200;
    assert.ok(await waitForRedis(client, 10_000), `the cluster connection is ready (status ${client.status}; errors: ${errors.slice(-12).join(' | ')})`);
    const armed = () => (client as unknown as { slotsTimer: NodeJS.Timeout | null }).slotsTimer;
    for (const node of topology.nodes) node.signal('SIGSTOP');
    try {
      await new Promise((resolve) => setTimeout(resolve, 400));
      const closing = closeRedis(client);
      for (const node of topology.nodes) node.signal('SIGCONT');
      await closing;
    } finally {
      for (const node of topology.nodes) node.signal('SIGCONT');
    }
    assert.equal(armed(), null, 'no periodic refresh is armed after close');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(armed(), null, 'and none re-arms itself later');
  });
}
