import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError } from './config-error.ts';
import { loadConfig } from './load-config.ts';

describe('loadConfig', () => {
  test('an empty environment gives the documented defaults', () => {
    assert.deepEqual(loadConfig({}), {
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/switchyard.db',
      redisUrl: undefined,
      redisTarget: undefined,
      redisOutageMode: 'local',
      database: { poolSize: 10, statementTimeoutMs: 0, replicaUrl: undefined },
      redisKeyPrefix: 'switchyard:',
      adminToken: undefined,
      gatewaySecret: undefined,
      metricsToken: undefined,
      publicUrl: undefined,
      configFile: undefined,
      workers: 1,
      drainTimeoutMs: 30_000,
      logLevel: 'info',
      bodyLimitBytes: 20 * 1024 * 1024,
      streamIdleTimeoutMs: 120_000,
      upstreamConnectTimeoutMs: 10_000,
      upstreamFirstByteTimeoutMs: 120_000,
      upstreamTotalTimeoutMs: 600_000,
      firstByteDeadline: { minMs: 2_000, maxMs: 20_000, coldMs: 3_000, hedge: true, maxBodyChars: 32_768 },
      altPrefix: 'antigravity',
      trustedProxies: [],
      clientIpHeader: 'x-forwarded-for',
      server: {
        headersTimeoutMs: 60_000,
        bodyTimeoutMs: 300_000,
        keepAliveTimeoutMs: 65_000,
        firstByteTimeoutMs: 5_000,
        maxConnections: 10_000,
        listenBacklog: 4_096,
      },
      revealOtherGroupModels: false,
      blockPrivateUpstreams: false,
      logRetentionDays: 30,
      ledgerRetentionDays: 400,
      strictPricing: true,
      reservedOutputTokens: 32_768,
      replyLimits: { maxEventBytes: 16 * 1024 * 1024, maxReplyBytes: 256 * 1024 * 1024 },
      responsesRetentionHours: 720,
      responsesMaxTurnBytes: 4 * 1024 * 1024,
      responsesMaxChainBytes: 16 * 1024 * 1024,
      responsesMaxKeyBytes: 256 * 1024 * 1024,
      affinityTtlSeconds: 3_600,
      responsesWebSocket: { enabled: true, maxPerKey: 16 },
    });
  });

  test('WORKERS defaults to every CPU in production with Redis and to 1 otherwise', async () => {
    const { availableParallelism } = await import('node:os');
    assert.equal(loadConfig({ NODE_ENV: 'production', REDIS_URL: 'redis://cache:6379' }).workers, availableParallelism());
    // Without Redis the embedded default must still serve (one worker), on any machine.
    assert.equal(loadConfig({ NODE_ENV: 'production' }).workers, 1);
    assert.equal(loadConfig({ NODE_ENV: 'production', WORKERS: '3' }).workers, 3);
    assert.equal(loadConfig({ NODE_ENV: 'development' }).workers, 1);
  });

  test('every variable is read and converted', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://gw@db/switchyard',
      REDIS_URL: 'redis://cache:6379',
      GATEWAY_ADMIN_TOKEN: 'admin-token-0123456789',
      GATEWAY_SECRET: 'gateway-secret-0123456789',
      GATEWAY_CONFIG: './switchyard.yaml',
      METRICS_TOKEN: 'metrics-token-0123456789',
      WORKERS: '4',
      LOG_LEVEL: 'DEBUG',
      BODY_LIMIT_BYTES: '1048576',
      STREAM_IDLE_TIMEOUT_MS: '30000',
      UPSTREAM_CONNECT_TIMEOUT_MS: '2000',
      UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '60000',
      UPSTREAM_TOTAL_TIMEOUT_MS: '300000',
      ALT_PREFIX: 'ag',
      TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1 ,::1,fd00::/8',
      LOG_RETENTION_DAYS: '0',
      STRICT_PRICING: 'yes',
    });
    assert.equal(config.port, 9000);
    assert.equal(config.databaseUrl, 'postgres://gw@db/switchyard');
    assert.equal(config.redisUrl, 'redis://cache:6379');
    assert.equal(config.workers, 4);
    assert.equal(config.metricsToken, 'metrics-token-0123456789');
    assert.equal(config.logLevel, 'debug');
    assert.equal(config.bodyLimitBytes, 1_048_576);
    assert.equal(config.upstreamTotalTimeoutMs, 300_000);
    assert.equal(config.altPrefix, 'ag');
    assert.deepEqual(config.trustedProxies, ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
    assert.equal(config.logRetentionDays, 0);
    assert.equal(config.strictPricing, true);
    assert.equal(config.configFile, './switchyard.yaml');
  });

  test('empty values count as unset', () => {
    assert.equal(loadConfig({ PORT: '', REDIS_URL: ' ' }).port, 8080);
    assert.equal(loadConfig({ REDIS_URL: '' }).redisUrl, undefined);
  });

  test('every invalid variable is reported at once, with what it expects', () => {
    let caught: unknown;
    try {
      loadConfig({
        PORT: '80a',
        WORKERS: '0',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://root:hunter2@db/x',
        TRUSTED_PROXIES: '10.0.0.0/8,not-an-ip,10.0.0.0/40',
        STRICT_PRICING: 'maybe',
        ALT_PREFIX: 'a/b',
        GATEWAY_SECRET: 'short-hunter2',
        UPSTREAM_CONNECT_TIMEOUT_MS: '-5',
      });
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof ConfigError);
    const problems = [...caught.problems].sort();
    assert.deepEqual(
      problems.map((problem) => problem.split(':')[0]),
      ['ALT_PREFIX', 'DATABASE_URL', 'GATEWAY_SECRET', 'LOG_LEVEL', 'PORT', 'STRICT_PRICING', 'TRUSTED_PROXIES', 'UPSTREAM_CONNECT_TIMEOUT_MS', 'WORKERS'],
    );
    assert.match(caught.message, /PORT: expected an integer from 0 to 65535, got "80a"/);
    assert.match(caught.message, /WORKERS: expected an integer from 1 to 256/);
    assert.match(caught.message, /LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent/);
    assert.match(caught.message, /TRUSTED_PROXIES: .*"not-an-ip", "10\.0\.0\.0\/40"/);
    assert.ok(!caught.message.includes('hunter2'), 'secrets and credentials are never echoed');
  });

  test('reads process.env when given nothing', () => {
    assert.equal(typeof loadConfig().port, 'number');
  });
});
