/** A Redis node as `host:port`. */
export interface RedisNode {
  host: string;
  port: number;
}

/** Credentials and transport shared by every node of a Sentinel or Cluster deployment. */
export interface RedisAuth {
  /** ACL user (Redis 6+); unset means the `default` user. */
  username?: string;
  password?: string;
  /** TLS to every node (and to the sentinels): what `rediss://` means for a single Redis. */
  tls: boolean;
}

/**
 * Where the shared state lives: one Redis (`REDIS_URL`, credentials and TLS in the URL), a
 * primary with replicas behind Sentinel (`REDIS_SENTINELS` + `REDIS_SENTINEL_NAME`), or a
 * Cluster (`REDIS_CLUSTER_NODES`). ioredis follows a Sentinel promotion and Cluster slot moves.
 */
export type RedisTarget =
  | { mode: 'standalone'; url: string }
  | ({ mode: 'sentinel'; sentinels: RedisNode[]; name: string; sentinelUsername?: string; sentinelPassword?: string } & RedisAuth)
  | ({ mode: 'cluster'; nodes: RedisNode[] } & RedisAuth);

/** Parses `host:port,host:port` (IPv6 as `[::1]:port`); undefined when an entry is malformed. */
export function parseRedisNodes(list: string): RedisNode[] | undefined {
  const nodes: RedisNode[] = [];
  for (const entry of list
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65_535) return undefined;
    nodes.push({ host: match[1]!.replace(/^\[|\]$/g, ''), port });
  }
  return nodes.length > 0 ? nodes : undefined;
}

/** For logs and the start banner: never the credentials. */
export function describeRedisTarget(target: RedisTarget): string {
  switch (target.mode) {
    case 'standalone':
      return target.url.replace(/\/\/[^@/]*@/, '//');
    case 'sentinel':
      return `sentinel "${target.name}" via ${target.sentinels.map((node) => `${node.host}:${node.port}`).join(',')}`;
    case 'cluster':
      return `cluster via ${target.nodes.map((node) => `${node.host}:${node.port}`).join(',')}`;
  }
}
