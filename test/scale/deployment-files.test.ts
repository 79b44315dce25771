import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { envSchema } from '../../src/config/config-schema.ts';

const compose = parse(readFileSync('docker-compose.yml', 'utf8')) as any;
const nginx = readFileSync('deploy/nginx.conf', 'utf8');

test('docker-compose.yml: two gateways from the Dockerfile on shared PostgreSQL and Redis, behind nginx', () => {
  const gateways = Object.keys(compose.services).filter((name) => name.startsWith('gateway-'));
  assert.deepEqual(gateways, ['gateway-1', 'gateway-2']);
  for (const name of gateways) {
    const gateway = compose.services[name];
    assert.equal(gateway.build, '.');
    assert.match(gateway.environment.DATABASE_URL, /^postgres:\/\/.+@postgres:5432\//);
    assert.equal(gateway.environment.REDIS_URL, 'redis://redis:6379');
    assert.match(gateway.environment.GATEWAY_SECRET, /^\$\{GATEWAY_SECRET:\?/);
    assert.equal(gateway.environment.HOST, '0.0.0.0');
    assert.deepEqual(Object.keys(gateway.depends_on).sort(), ['postgres', 'redis']);
    // Every variable the gateways are given is one the gateway reads.
    for (const variable of Object.keys(gateway.environment)) assert.ok(variable in envSchema.shape, `${variable} is not a setting`);
  }
  assert.match(compose.services.postgres.image, /^postgres:/);
  assert.match(compose.services.redis.image, /^redis:/);
  assert.ok(compose.services.nginx.volumes.includes('./deploy/nginx.conf:/etc/nginx/nginx.conf:ro'));
  // The drain fits in the grace period Docker gives before SIGKILL.
  assert.ok(Number.parseInt(compose.services['gateway-1'].stop_grace_period, 10) * 1000 > Number(compose.services['gateway-1'].environment.DRAIN_TIMEOUT_MS));
  // Trusted proxies cover the network nginx is on.
  assert.equal(compose.services['gateway-1'].environment.TRUSTED_PROXIES, compose.networks.switchyard.ipam.config[0].subnet);
});

test('deploy/nginx.conf balances over every gateway in the compose file and streams unbuffered', () => {
  for (const name of Object.keys(compose.services).filter((service) => service.startsWith('gateway-'))) {
    assert.match(nginx, new RegExp(`server ${name}:8080`));
  }
  assert.match(nginx, /proxy_buffering off;/);
  assert.match(nginx, /proxy_http_version 1\.1;/);
  assert.match(nginx, /listen 80;/);
  assert.equal(compose.services.nginx.ports[0], '${SWITCHYARD_PORT:-8080}:80');
});

test('the Dockerfile runs the gateway as node with a /readyz health check', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  assert.match(dockerfile, /CMD \["node", "dist\/main\.js"\]/);
  assert.match(dockerfile, /\/readyz/);
  assert.match(dockerfile, /NODE_ENV=production/);
});

test('the runtime image keeps its data on a volume and carries no build tools, sources or test packages', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  assert.match(dockerfile, /VOLUME \["\/app\/data"\]/);
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  // Only named build outputs are copied into the runtime stage, never the whole build tree.
  assert.doesNotMatch(runtime, /COPY --from=build[^\n]* \/app \/app/);
  assert.doesNotMatch(runtime, /console\/node_modules|\/app\/src|\/app\/test|apt-get/);
  assert.match(runtime, /\/app\/console\/dist/);
  assert.match(dockerfile, /npm prune --omit=dev/);
  // The three CLI test clients are not dependencies of the gateway at all.
  const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
  for (const name of ['@anthropic-ai/claude-code', '@openai/codex', '@google/gemini-cli']) {
    assert.equal(manifest.devDependencies[name] ?? manifest.dependencies[name], undefined, name);
  }
});
