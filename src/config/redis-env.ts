import { z } from 'zod';
import { REDIS_OUTAGE_MODES, type RedisOutageMode } from '../kv/kv-outage.ts';
import { parseRedisNodes, type RedisTarget } from '../kv/redis-target.ts';

type TextField = (options: { fallback?: string; check?: (value: string) => boolean; expects: string; secret?: boolean }) => z.ZodType<string | undefined>;
type FlagField = (fallback: boolean) => z.ZodType<boolean>;

const NODES = 'a comma-separated list of host:port';

/** The variables of a Redis behind Sentinel or in a Cluster (REDIS_URL stays beside the others in the schema). */
export function redisHaEnv(fields: { text: TextField; flag: FlagField }) {
  const { text, flag } = fields;
  return {
    REDIS_SENTINELS: text({ check: (value) => parseRedisNodes(value) !== undefined, expects: NODES }),
    REDIS_SENTINEL_NAME: text({ check: (value) => /^[A-Za-z0-9._-]{1,128}$/.test(value), expects: 'the monitored primary\'s name, e.g. "mymaster"' }),
    REDIS_SENTINEL_USERNAME: text({ check: (value) => value.length <= 256, expects: 'an ACL user name' }),
    REDIS_SENTINEL_PASSWORD: text({ check: (value) => value.length <= 1_024, expects: 'a password', secret: true }),
    REDIS_CLUSTER_NODES: text({ check: (value) => parseRedisNodes(value) !== undefined, expects: NODES }),
    REDIS_USERNAME: text({ check: (value) => value.length <= 256, expects: 'an ACL user name' }),
    REDIS_PASSWORD: text({ check: (value) => value.length <= 1_024, expects: 'a password', secret: true }),
    REDIS_TLS: flag(false),
    REDIS_OUTAGE_MODE: text({
      fallback: 'local',
      check: (value) => (REDIS_OUTAGE_MODES as readonly string[]).includes(value),
      expects: REDIS_OUTAGE_MODES.join(' or '),
    }),
  };
}

export interface RedisEnvValues {
  REDIS_URL?: string | undefined;
  REDIS_SENTINELS?: string | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
  REDIS_SENTINEL_USERNAME?: string | undefined;
  REDIS_SENTINEL_PASSWORD?: string | undefined;
  REDIS_CLUSTER_NODES?: string | undefined;
  REDIS_USERNAME?: string | undefined;
  REDIS_PASSWORD?: string | undefined;
  REDIS_TLS: boolean;
  REDIS_OUTAGE_MODE?: string | undefined;
}

/**
 * The one Redis mode the variables choose, or the problems that make the choice impossible
 * (two modes at once, a Sentinel without its primary's name). Credentials and TLS of a single
 * Redis are in its URL (`rediss://user:password@host`); the other modes take REDIS_USERNAME,
 * REDIS_PASSWORD and REDIS_TLS for every node.
 */
export function redisTargetFrom(values: RedisEnvValues): { target: RedisTarget | undefined; problems: string[] } {
  const chosen = [values.REDIS_URL && 'REDIS_URL', values.REDIS_SENTINELS && 'REDIS_SENTINELS', values.REDIS_CLUSTER_NODES && 'REDIS_CLUSTER_NODES'].filter(
    (name): name is string => typeof name === 'string',
  );
  if (chosen.length > 1) return { target: undefined, problems: [`${chosen.join(', ')}: set only one of them (one Redis, Sentinel or Cluster)`] };
  const auth = {
    ...(values.REDIS_USERNAME === undefined ? {} : { username: values.REDIS_USERNAME }),
    ...(values.REDIS_PASSWORD === undefined ? {} : { password: values.REDIS_PASSWORD }),
    tls: values.REDIS_TLS,
  };
  if (values.REDIS_URL !== undefined) return { target: { mode: 'standalone', url: values.REDIS_URL }, problems: [] };
  if (values.REDIS_CLUSTER_NODES !== undefined) {
    return { target: { mode: 'cluster', nodes: parseRedisNodes(values.REDIS_CLUSTER_NODES) ?? [], ...auth }, problems: [] };
  }
  if (values.REDIS_SENTINELS === undefined) return { target: undefined, problems: [] };
  if (values.REDIS_SENTINEL_NAME === undefined) {
    return { target: undefined, problems: ['REDIS_SENTINEL_NAME: required with REDIS_SENTINELS (the name the sentinels monitor the primary under)'] };
  }
  return {
    target: {
      mode: 'sentinel',
      sentinels: parseRedisNodes(values.REDIS_SENTINELS) ?? [],
      name: values.REDIS_SENTINEL_NAME,
      ...(values.REDIS_SENTINEL_USERNAME === undefined ? {} : { sentinelUsername: values.REDIS_SENTINEL_USERNAME }),
      ...(values.REDIS_SENTINEL_PASSWORD === undefined ? {} : { sentinelPassword: values.REDIS_SENTINEL_PASSWORD }),
      ...auth,
    },
    problems: [],
  };
}

export function outageModeFrom(values: RedisEnvValues): RedisOutageMode {
  return values.REDIS_OUTAGE_MODE === 'refuse' ? 'refuse' : 'local';
}
