import { randomBytes } from 'node:crypto';
import type { RedisConnection } from '../kv/open-redis.ts';
import type pg from 'pg';
import { requireOnDemand } from '../core/require-on-demand.ts';
import type { Logger } from 'pino';

/** Whether this instance should do the work that must run once across all instances. */
export interface LeaderElection {
  isLeader(): boolean;
  stop(): Promise<void>;
}

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Without Redis or PostgreSQL there is one instance, and it leads. */
export function alwaysLeader(): LeaderElection {
  return { isLeader: () => true, stop: async () => {} };
}

/**
 * A lock in Redis with an expiry, renewed at a third of it: if the leader dies, another
 * instance takes over within `ttlMs`. Losing Redis means losing the lead (nobody leads until
 * it is back), which only delays probes and pruning.
 */
export function startRedisLeaderElection(input: { redis: RedisConnection; key: string; ttlMs?: number; logger: Logger }): LeaderElection {
  const ttlMs = input.ttlMs ?? 15_000;
  const token = randomBytes(12).toString('hex');
  let leader = false;
  let stopped = false;

  let ticking = false; // one tick at a time: a slow Redis must not let renewals overlap
  const tick = async () => {
    if (ticking) return;
    ticking = true;
    try {
      const held = leader
        ? (await input.redis.eval(RENEW, 1, input.key, token, String(ttlMs))) === 1
        : (await input.redis.set(input.key, token, 'PX', ttlMs, 'NX')) === 'OK';
      if (held !== leader)
        input.logger.info({ leader: held }, held ? 'this instance now runs the leader work (health checks, log pruning)' : 'this instance no longer leads');
      leader = held && !stopped;
    } catch {
      leader = false;
    } finally {
      ticking = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), Math.max(100, Math.floor(ttlMs / 3)));
  timer.unref();
  return {
    isLeader: () => leader,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (leader) await input.redis.eval(RELEASE, 1, input.key, token).catch(() => undefined);
      leader = false;
    },
  };
}

/**
 * A PostgreSQL session-level advisory lock on a connection of its own: held while the
 * connection lives, released by PostgreSQL itself if the instance dies.
 */
export function startPostgresLeaderElection(input: { databaseUrl: string; lockId: number; retryMs?: number; logger: Logger }): LeaderElection {
  let client: pg.Client | undefined;
  let leader = false;
  let stopped = false;

  const drop = () => {
    const old = client;
    client = undefined;
    if (leader) input.logger.warn('lost the leader lock connection; another instance may take over');
    leader = false;
    void old?.end().catch(() => undefined);
  };
  // One tick at a time: on a loaded machine a connect can outlast the retry interval, and an
  // overlapping tick would open a second connection, orphaning the first one with the lock held
  // (nobody else could lead, and the stray connection kept the process alive).
  let ticking = false;
  const tick = async () => {
    if (leader || stopped || ticking) return;
    ticking = true;
    try {
      if (!client) {
        const { Client } = requireOnDemand('pg') as typeof pg;
        const fresh = new Client({ connectionString: input.databaseUrl });
        fresh.on('error', drop);
        await fresh.connect();
        if (stopped) {
          // stop() ran while this connection was opening: it must not outlive the election.
          await fresh.end().catch(() => undefined);
          return;
        }
        client = fresh;
      }
      const result = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [input.lockId]);
      leader = result.rows[0]?.locked === true && !stopped;
      if (leader) input.logger.info('this instance now runs the leader work (health checks, log pruning)');
    } catch {
      drop();
    } finally {
      ticking = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), input.retryMs ?? 10_000);
  timer.unref();
  return {
    isLeader: () => leader,
    async stop() {
      stopped = true;
      clearInterval(timer);
      leader = false;
      const old = client;
      client = undefined;
      await old?.end().catch(() => undefined);
    },
  };
}
