import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError } from './config-error.ts';
import { loadConfig } from './load-config.ts';

describe('Redis modes and database settings from the environment', () => {
  test('REDIS_URL is one Redis, its credentials and TLS in the URL', () => {
    assert.deepEqual(loadConfig({ REDIS_URL: 'rediss://gw:pw@cache:6380' }).redisTarget, { mode: 'standalone', url: 'rediss://gw:pw@cache:6380' });
  });

  test('Sentinel: the sentinels, the primary name, its own password, and ACL user and TLS for the data nodes', () => {
    const config = loadConfig({
      REDIS_SENTINELS: 's1:26379, s2:26379,[::1]:26380',
      REDIS_SENTINEL_NAME: 'mymaster',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
      REDIS_USERNAME: 'switchyard',
      REDIS_PASSWORD: 'node-secret',
      REDIS_TLS: 'true',
      REDIS_OUTAGE_MODE: 'refuse',
      WORKERS: '2',
    });
    assert.deepEqual(config.redisTarget, {
      mode: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'mymaster',
      sentinelPassword: 'sentinel-secret',
      username: 'switchyard',
      password: 'node-secret',
      tls: true,
    });
    assert.equal(config.redisOutageMode, 'refuse');
    assert.equal(config.workers, 2);
  });

  test('Cluster: some of its nodes', () => {
    assert.deepEqual(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000,10.0.0.2:7001' }).redisTarget, {
      mode: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
      ],
      tls: false,
    });
  });

  test('two modes at once, a Sentinel without its name, a malformed node list and an unknown outage mode are refused', () => {
    assert.throws(
      () => loadConfig({ REDIS_URL: 'redis://a', REDIS_CLUSTER_NODES: 'b:7000' }),
      (error: unknown) => error instanceof ConfigError && /set only one of them/.test(error.message),
    );
    assert.throws(() => loadConfig({ REDIS_SENTINELS: 'a:26379' }), /REDIS_SENTINEL_NAME: required/);
    assert.throws(() => loadConfig({ REDIS_CLUSTER_NODES: 'a:7000,b' }), /REDIS_CLUSTER_NODES: expected a comma-separated list of host:port, got "a:7000,b"/);
    assert.throws(() => loadConfig({ REDIS_CLUSTER_NODES: 'a:70000' }), /REDIS_CLUSTER_NODES/);
    assert.throws(() => loadConfig({ REDIS_OUTAGE_MODE: 'maybe' }), /REDIS_OUTAGE_MODE: expected local or refuse/);
  });

  test('passwords are never echoed in a refusal', () => {
    assert.throws(
      () => loadConfig({ REDIS_SENTINELS: 'a:1', REDIS_SENTINEL_PASSWORD: 'x'.repeat(2_000) + 'hunter2' }),
      (error: unknown) => error instanceof ConfigError && !error.message.includes('hunter2'),
    );
  });

  test('PostgreSQL pool size, statement timeout and read replica', () => {
    const config = loadConfig({ DATABASE_POOL_SIZE: '40', DATABASE_STATEMENT_TIMEOUT_MS: '15000', DATABASE_REPLICA_URL: 'postgres://ro@replica/switchyard' });
    assert.deepEqual(config.database, { poolSize: 40, statementTimeoutMs: 15_000, replicaUrl: 'postgres://ro@replica/switchyard' });
    assert.throws(() => loadConfig({ DATABASE_POOL_SIZE: '0' }), /DATABASE_POOL_SIZE/);
    assert.throws(() => loadConfig({ DATABASE_REPLICA_URL: 'mysql://x' }), /DATABASE_REPLICA_URL/);
  });
});
