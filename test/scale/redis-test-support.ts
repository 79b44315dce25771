import { randomBytes } from 'node:crypto';

/** The Redis the tests share (`.ci/run` starts it); REDIS_TEST_URL overrides. */
export function redisTestUrl(): string {
  return process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
}

/** PostgreSQL for the scale-out tests; POSTGRES_TEST_URL overrides. */
export function postgresTestUrl(): string {
  return process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** A key prefix no other run uses, so parallel runs never see each other's keys. */
export function uniquePrefix(label: string): string {
  return `test:${label}:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under `prefix` (what a test run leaves behind: accounts, windows, locks). */
export async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
