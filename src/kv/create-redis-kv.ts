import type { RedisConnection } from './open-redis.ts';
import { HOLD_RECORD_TTL_MS, SETTLED_MARK_TTL_MS, type Kv, type KvAdjustOptions, type KvAdjustResult, type KvFunding, type KvLeaseOptions } from './kv.ts';

/**
 * Each method is one Lua script or one command, so it is atomic in Redis however many
 * instances call it at once. Arithmetic is INCRBY (exact integers, keeps the expiry);
 * Lua only compares, in doubles, which is exact below 2^53 like the JavaScript side.
 */
const ADJUST = `
local raw = redis.call('GET', KEYS[1])
if not raw then
  if ARGV[5] == '1' then return {0, '0', 1} end
  raw = '0'
end
local delta = tonumber(ARGV[1])
local next = tonumber(raw) + delta
if (ARGV[2] ~= '' and next < tonumber(ARGV[2])) or (ARGV[3] ~= '' and next > tonumber(ARGV[3])) then
  return {0, raw, 0}
end
local created = redis.call('EXISTS', KEYS[1]) == 0
local stored = redis.call('INCRBY', KEYS[1], ARGV[1])
if created and ARGV[4] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return {1, stored, 0}
`;

const SET_IF_ABSENT = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
if ARGV[2] ~= '' then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('SET', KEYS[1], ARGV[1])
end
return ARGV[1]
`;

// Accounts: the value under KEYS[1], what it was funded with as of which record version in the
// hash KEYS[2] (v, f), one string per hold (KEYS[3]: the delta held, or 'settled'). Differences
// are applied as two integer commands rather than computed in Lua, whose number-to-string
// conversion would round large values.
const FUND = `
local function fund(version, funded)
  if version == '' then return end
  local seen = redis.call('HMGET', KEYS[2], 'v', 'f')
  if seen[1] and tonumber(seen[1]) >= tonumber(version) then return end
  if seen[1] then
    redis.call('INCRBY', KEYS[1], funded)
    redis.call('DECRBY', KEYS[1], seen[2])
  end
  redis.call('HSET', KEYS[2], 'v', version, 'f', funded)
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
end
`;

const SEED_ACCOUNT = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) else redis.call('SET', KEYS[1], ARGV[1]) end
redis.call('DEL', KEYS[2])
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[2], 'v', ARGV[3], 'f', ARGV[4])
  if ARGV[2] ~= '' then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
end
return ARGV[1]
`;

const HOLD = `${FUND}
if not redis.call('GET', KEYS[1]) then return {0, '0', 1} end
fund(ARGV[4], ARGV[5])
local raw = redis.call('GET', KEYS[1])
local record = redis.call('GET', KEYS[3])
if record then
  if record == 'settled' then return {0, raw, 0} end
  return {1, raw, 0}
end
local next = tonumber(raw) + tonumber(ARGV[1])
if (ARGV[2] ~= '' and next < tonumber(ARGV[2])) or (ARGV[3] ~= '' and next > tonumber(ARGV[3])) then
  return {0, raw, 0}
end
local stored = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[6])
return {1, stored, 0}
`;

const SETTLE = `
local record = redis.call('GET', KEYS[2])
if record == 'settled' then return 0 end
if not record then
  redis.call('SET', KEYS[2], 'settled', 'PX', ARGV[2])
  return 0
end
redis.call('DEL', KEYS[2])
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('INCRBY', KEYS[1], ARGV[1])
  redis.call('DECRBY', KEYS[1], record)
end
return 1
`;

const FUND_ONLY = `${FUND}
if not redis.call('GET', KEYS[1]) then return false end
fund(ARGV[1], ARGV[2])
return redis.call('GET', KEYS[1])
`;

// Leases are a sorted set of holder -> expiry (the caller's clock, so every instance and the
// tests agree on one notion of time); the set itself lives as long as its newest lease.
const ACQUIRE_LEASE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local held = redis.call('ZCARD', KEYS[1])
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) and held >= tonumber(ARGV[3]) then
  return {0, held}
end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[4]), ARGV[2])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return {1, redis.call('ZCARD', KEYS[1])}
`;

type ScriptedRedis = RedisConnection & {
  kvAdjust(key: string, delta: string, min: string, max: string, ttl: string, requireExisting: string): Promise<[number, string | number, number]>;
  kvSetIfAbsent(key: string, value: string, ttl: string): Promise<string>;
  kvAcquireLease(key: string, now: string, holder: string, max: string, ttl: string): Promise<[number, number]>;
  kvSeedAccount(key: string, funding: string, value: string, ttl: string, version: string, funded: string): Promise<string>;
  kvHold(
    key: string,
    funding: string,
    record: string,
    delta: string,
    min: string,
    max: string,
    version: string,
    funded: string,
    ttl: string,
  ): Promise<[number, string | number, number]>;
  kvSettle(key: string, record: string, finalDelta: string, markTtl: string): Promise<number>;
  kvFund(key: string, funding: string, version: string, funded: string): Promise<string | null>;
};

const fundingKey = (key: string) => `${key}#funding`;
const holdKey = (key: string, holdId: string) => `${key}#hold:${holdId}`;

export interface RedisKvOptions {
  /** Prepended to every key, so several gateways (or test runs) can share one Redis. */
  prefix?: string;
  now?: () => number;
  /**
   * Wraps each key in a hash tag (`prefix{balance:k}`, `prefix{balance:k}#hold:id`), so that
   * the keys one script touches share a Cluster slot; text lookups are then sent one key each
   * (an MGET across slots is refused by a Cluster). Set for a Cluster; harmless elsewhere.
   */
  hashTags?: boolean;
}

/** The shared `Kv` for several instances; passes the same conformance suite as the memory one. */
export function createRedisKv(redis: RedisConnection, options: RedisKvOptions = {}): Kv {
  const prefix = options.prefix ?? '';
  const name = options.hashTags === true ? (key: string) => `${prefix}{${key}}` : (key: string) => prefix + key;
  const now = options.now ?? Date.now;
  const client = redis as ScriptedRedis;
  if (typeof client.kvAdjust !== 'function') {
    redis.defineCommand('kvAdjust', { numberOfKeys: 1, lua: ADJUST });
    redis.defineCommand('kvSetIfAbsent', { numberOfKeys: 1, lua: SET_IF_ABSENT });
    redis.defineCommand('kvAcquireLease', { numberOfKeys: 1, lua: ACQUIRE_LEASE });
    redis.defineCommand('kvSeedAccount', { numberOfKeys: 2, lua: SEED_ACCOUNT });
    redis.defineCommand('kvHold', { numberOfKeys: 3, lua: HOLD });
    redis.defineCommand('kvSettle', { numberOfKeys: 2, lua: SETTLE });
    redis.defineCommand('kvFund', { numberOfKeys: 2, lua: FUND_ONLY });
  }
  const fundingArgs = (funding: KvFunding | undefined): [string, string] => {
    if (funding === undefined) return ['', ''];
    requireInteger(funding.version, 'funding version');
    requireInteger(funding.fundedMicros, 'fundedMicros');
    return [String(funding.version), String(funding.fundedMicros)];
  };
  const bound = (value: number | undefined) => (value === undefined ? '' : String(value));

  return {
    async get(key) {
      const value = await client.get(name(key));
      return value === null ? undefined : Number(value);
    },

    async setIfAbsent(key, value, ttlMs) {
      requireInteger(value, 'value');
      return Number(await client.kvSetIfAbsent(name(key), String(value), bound(ttlMs)));
    },

    async adjust(key, delta, adjustOptions: KvAdjustOptions = {}): Promise<KvAdjustResult> {
      requireInteger(delta, 'delta');
      const [applied, value, missing] = await client.kvAdjust(
        name(key),
        String(delta),
        bound(adjustOptions.min),
        bound(adjustOptions.max),
        bound(adjustOptions.ttlMs),
        adjustOptions.requireExisting ? '1' : '0',
      );
      if (missing === 1) return { applied: false, value: 0, missing: true };
      return { applied: applied === 1, value: Number(value) };
    },

    async delete(key) {
      await client.del(name(key), fundingKey(name(key)));
    },

    async seedAccount(key, value, seedOptions = {}) {
      requireInteger(value, 'value');
      const [version, funded] = fundingArgs(seedOptions.funding);
      return Number(await client.kvSeedAccount(name(key), fundingKey(name(key)), String(value), bound(seedOptions.ttlMs), version, funded));
    },

    async hold(key, holdId, delta, holdOptions = {}) {
      requireInteger(delta, 'delta');
      const [version, funded] = fundingArgs(holdOptions.funding);
      const [applied, value, missing] = await client.kvHold(
        name(key),
        fundingKey(name(key)),
        holdKey(name(key), holdId),
        String(delta),
        bound(holdOptions.min),
        bound(holdOptions.max),
        version,
        funded,
        String(HOLD_RECORD_TTL_MS),
      );
      if (missing === 1) return { applied: false, value: 0, missing: true };
      return { applied: applied === 1, value: Number(value) };
    },

    async settle(key, holdId, finalDelta) {
      requireInteger(finalDelta, 'finalDelta');
      await client.kvSettle(name(key), holdKey(name(key), holdId), String(finalDelta), String(SETTLED_MARK_TTL_MS));
    },

    async fund(key, funding) {
      const [version, funded] = fundingArgs(funding);
      const value = await client.kvFund(name(key), fundingKey(name(key)), version, funded);
      return value === null ? undefined : Number(value);
    },

    async acquireLease(key, holder, leaseOptions: KvLeaseOptions) {
      const [applied, value] = await client.kvAcquireLease(name(key), String(now()), holder, String(leaseOptions.max), String(leaseOptions.ttlMs));
      return { applied: applied === 1, value: Number(value) };
    },

    async releaseLease(key, holder) {
      await client.zrem(name(key), holder);
    },

    async getTexts(keys) {
      if (keys.length === 0) return [];
      const names = keys.map((key) => name(key));
      // Keys in different slots: one GET each, sent together (a Cluster refuses a cross-slot MGET).
      const values = options.hashTags === true ? await Promise.all(names.map((each) => client.get(each))) : await client.mget(...names);
      return values.map((value) => (value === null ? undefined : value));
    },

    async setTexts(keys, value, ttlMs) {
      if (keys.length === 0) return;
      if (options.hashTags === true) {
        await Promise.all(keys.map((key) => client.set(name(key), value, 'PX', ttlMs)));
        return;
      }
      const pipeline = client.pipeline();
      for (const key of keys) pipeline.set(name(key), value, 'PX', ttlMs);
      const results = await pipeline.exec();
      const failed = results?.find(([error]) => error !== null);
      if (failed) throw failed[0];
    },

    async close() {
      // The connection belongs to whoever opened it (it also carries pub/sub and locks).
    },
  };
}

function requireInteger(value: number, name: string): void {
  if (!Number.isSafeInteger(value)) throw new TypeError(`kv ${name} must be a safe integer, got ${value}`);
}
