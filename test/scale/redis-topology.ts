import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import type { RedisNode } from '../../src/kv/redis-target.ts';
import { waitFor } from '../helpers/wait-for.ts';

const run = promisify(execFile);
const HOST = '127.0.0.1';

/** One redis-server (or sentinel) of a topology, that a test can kill, stall and resume. */
export interface RedisNodeProcess extends RedisNode {
  kill(signal?: NodeJS.Signals): Promise<void>;
  signal(signal: NodeJS.Signals): void;
}

/** Real processes started by a test, removed (with their directory) by `dispose`. */
interface Topology {
  directory: string;
  dispose(): Promise<void>;
}

function startRedisNode(directory: string, port: number, args: string[]): RedisNodeProcess {
  const child: ChildProcess = spawn('redis-server', args, { stdio: 'ignore', cwd: directory });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    host: HOST,
    port,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill(signal);
      await exited;
    },
    signal(signal) {
      child.kill(signal);
    },
  };
}

async function answering(port: number): Promise<void> {
  const probe = new Redis({ host: HOST, port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await waitFor(
      async () => {
        try {
          if (probe.status !== 'ready') await probe.connect();
          return (await probe.ping()) === 'PONG';
        } catch {
          return false;
        }
      },
      `redis on port ${port} answers`,
      10_000,
    );
  } finally {
    probe.disconnect();
  }
}

/** Waits for the replica's first full copy (`master_link_status:up`): before it, a failover would promote an empty node. */
async function replicaInSync(port: number): Promise<void> {
  const asker = new Redis({ host: HOST, port, maxRetriesPerRequest: 0 });
  try {
    await waitFor(async () => /master_link_status:up/.test(await asker.info('replication')), `the replica on ${port} is in sync`, 15_000);
  } finally {
    asker.disconnect();
  }
}

function dataNodeArgs(directory: string, port: number, extra: string[] = []): string[] {
  return [
    '--port',
    String(port),
    '--bind',
    HOST,
    '--dir',
    directory,
    '--dbfilename',
    `dump-${port}.rdb`,
    '--save',
    '',
    '--appendonly',
    'no',
    '--repl-diskless-sync-delay',
    '0',
    ...extra,
  ];
}

export interface SentinelTopology extends Topology {
  name: string;
  primary: RedisNodeProcess;
  replica: RedisNodeProcess;
  sentinels: RedisNodeProcess[];
  /** The primary the sentinels name now. */
  currentPrimary(): Promise<RedisNode>;
}

/**
 * A primary, one replica and three sentinels (quorum 2) on the given ports: `basePort` and
 * `basePort + 1` for the data nodes, `sentinelBasePort` .. + 2 for the sentinels. A primary
 * unreachable for `downAfterMs` is failed over.
 */
export async function startSentinelTopology(input: { basePort: number; sentinelBasePort: number; downAfterMs?: number }): Promise<SentinelTopology> {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-sentinel-'));
  const started: RedisNodeProcess[] = [];
  try {
    return await sentinelTopologyIn(directory, input, started);
  } catch (error) {
    // A node that would not start (its port taken): the others would keep the test process alive.
    for (const node of started) await node.kill();
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

async function sentinelTopologyIn(
  directory: string,
  input: { basePort: number; sentinelBasePort: number; downAfterMs?: number },
  started: RedisNodeProcess[],
): Promise<SentinelTopology> {
  const startNode = (dir: string, port: number, args: string[]) => {
    const node = startRedisNode(dir, port, args);
    started.push(node);
    return node;
  };
  const name = 'switchyard-primary';
  const [primaryPort, replicaPort] = [input.basePort, input.basePort + 1];
  const primary = startNode(directory, primaryPort, dataNodeArgs(directory, primaryPort));
  await answering(primaryPort);
  const replica = startNode(directory, replicaPort, dataNodeArgs(directory, replicaPort, ['--replicaof', HOST, String(primaryPort)]));
  await answering(replicaPort);
  await replicaInSync(replicaPort);
  const sentinels: RedisNodeProcess[] = [];
  for (let index = 0; index < 3; index += 1) {
    const port = input.sentinelBasePort + index;
    const file = join(directory, `sentinel-${port}.conf`);
    writeFileSync(
      file,
      [
        `port ${port}`,
        `bind ${HOST}`,
        `dir ${directory}`,
        `sentinel monitor ${name} ${HOST} ${primaryPort} 2`,
        `sentinel down-after-milliseconds ${name} ${input.downAfterMs ?? 1_000}`,
        `sentinel failover-timeout ${name} 10000`,
        `sentinel parallel-syncs ${name} 1`,
        '',
      ].join('\n'),
    );
    sentinels.push(startNode(directory, port, [file, '--sentinel']));
  }
  for (const sentinel of sentinels) await answering(sentinel.port);
  const currentPrimary = async (): Promise<RedisNode> => {
    const asker = new Redis({ host: HOST, port: input.sentinelBasePort, maxRetriesPerRequest: 0 });
    try {
      const [host, port] = (await asker.call('SENTINEL', 'get-master-addr-by-name', name)) as [string, string];
      return { host, port: Number(port) };
    } finally {
      asker.disconnect();
    }
  };
  // The sentinels have found each other and the replica before the test may rely on a failover.
  await waitFor(
    async () => {
      const asker = new Redis({ host: HOST, port: input.sentinelBasePort, maxRetriesPerRequest: 0 });
      try {
        const info = (await asker.call('SENTINEL', 'master', name)) as string[];
        const field = (key: string) => Number(info[info.indexOf(key) + 1]);
        return field('num-other-sentinels') === 2 && field('num-slaves') === 1;
      } catch {
        return false;
      } finally {
        asker.disconnect();
      }
    },
    'the sentinels see each other and the replica',
    15_000,
  );
  return {
    directory,
    name,
    primary,
    replica,
    sentinels,
    currentPrimary,
    async dispose() {
      for (const node of [...sentinels, replica, primary]) await node.kill();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

export interface ClusterTopology extends Topology {
  /** All six nodes; which ones are primaries changes after a failover. */
  nodes: RedisNodeProcess[];
  /** The node serving `key`'s slot as primary now. */
  primaryFor(key: string): Promise<RedisNodeProcess>;
}

/**
 * Six nodes (three primaries, three replicas) on `basePort` .. + 5 (and the cluster bus on
 * + 10000), created by `redis-cli --cluster create`. A primary unreachable for `nodeTimeoutMs`
 * is replaced by its replica.
 */
export async function startClusterTopology(input: { basePort: number; nodeTimeoutMs?: number }): Promise<ClusterTopology> {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-cluster-'));
  const nodes: RedisNodeProcess[] = [];
  for (let index = 0; index < 6; index += 1) {
    const port = input.basePort + index;
    const args = dataNodeArgs(directory, port, [
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `nodes-${port}.conf`,
      '--cluster-node-timeout',
      String(input.nodeTimeoutMs ?? 1_500),
    ]);
    nodes.push(startRedisNode(directory, port, args));
  }
  for (const node of nodes) await answering(node.port);
  await run('redis-cli', ['--cluster', 'create', ...nodes.map((node) => `${HOST}:${node.port}`), '--cluster-replicas', '1', '--cluster-yes']);
  await waitFor(
    async () => (await Promise.all(nodes.map((node) => clusterState(node.port)))).every((state) => state === 'ok'),
    'cluster_state:ok on every node',
    20_000,
  );
  // cluster_state:ok comes before every node has learned every other's address: until then a
  // node's CLUSTER SLOTS can name an endpoint with an empty host, and a client that reads it
  // drops the nodes it knows and closes (seen under CPU contention). Wait for the whole map.
  const ports = new Set(nodes.map((node) => node.port));
  await waitFor(
    async () => (await Promise.all(nodes.map((node) => slotMapComplete(node.port, ports)))).every(Boolean),
    'every node names every slot owner and replica by address',
    20_000,
  );
  return {
    directory,
    nodes,
    async primaryFor(key) {
      // Asked of any node that answers: the one asked first may be the primary a test just killed.
      for (const candidate of nodes) {
        const asker = new Redis({ host: HOST, port: candidate.port, maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
        asker.on('error', () => {});
        try {
          await asker.connect();
          const slot = Number(await asker.call('CLUSTER', 'KEYSLOT', key));
          const ranges = (await asker.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number]]>;
          const owner = ranges.find(([from, to]) => slot >= from && slot <= to);
          const node = nodes.find((each) => each.port === owner?.[2][1]);
          if (node) return node;
        } catch {
          // This node is down or not answering: ask the next one.
        } finally {
          asker.disconnect();
        }
      }
      throw new Error(`no node names a primary for ${key}`);
    },
    async dispose() {
      for (const node of nodes) await node.kill();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** `cluster_state` as one node sees it (`ok` or `fail`), or undefined when it does not answer. */
/** True when `port`'s CLUSTER SLOTS covers all 16384 slots, each range with a primary and a replica named by a known address. */
async function slotMapComplete(port: number, ports: Set<number>): Promise<boolean> {
  const asker = new Redis({ host: HOST, port, maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
  asker.on('error', () => {});
  try {
    await asker.connect();
    const ranges = (await asker.call('CLUSTER', 'SLOTS')) as Array<[number, number, ...Array<[string, number]>]>;
    const covered = ranges.reduce((sum, [from, to]) => sum + (to - from + 1), 0);
    const named = ranges.every(([, , ...endpoints]) => endpoints.length === 2 && endpoints.every(([host, each]) => host === HOST && ports.has(each)));
    return covered === 16_384 && named;
  } catch {
    return false;
  } finally {
    asker.disconnect();
  }
}

export async function clusterState(port: number): Promise<string | undefined> {
  const asker = new Redis({ host: HOST, port, maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
  asker.on('error', () => {});
  try {
    await asker.connect();
    const info = (await asker.call('CLUSTER', 'INFO')) as string;
    return /cluster_state:(\w+)/.exec(info)?.[1];
  } catch {
    return undefined;
  } finally {
    asker.disconnect();
  }
}
