import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadGatewaySecret } from '../../src/store/load-gateway-secret.ts';
import { parseDatabaseUrl } from '../../src/store/parse-database-url.ts';

const directory = mkdtempSync(join(tmpdir(), 'switchyard-secret-'));
after(() => rmSync(directory, { recursive: true, force: true }));

describe('loadGatewaySecret', () => {
  test('GATEWAY_SECRET wins for either dialect', () => {
    for (const databaseUrl of ['sqlite:/nonexistent/x.db', 'postgres://db/switchyard']) {
      assert.equal(loadGatewaySecret({ databaseUrl, gatewaySecret: 'from-env-0123456789' }).toString(), 'from-env-0123456789');
    }
  });

  test('SQLite without it creates <db dir>/gateway.secret with mode 0600, then reuses it', () => {
    const databaseUrl = `sqlite:${join(directory, 'data', 'switchyard.db')}`;
    const first = loadGatewaySecret({ databaseUrl });
    const path = join(directory, 'data', 'gateway.secret');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.match(readFileSync(path, 'utf8'), /^[0-9a-f]{64}\n$/);
    assert.deepEqual(loadGatewaySecret({ databaseUrl }), first);
    // The file's contents work as GATEWAY_SECRET, so a move to PostgreSQL keeps the same key.
    assert.deepEqual(loadGatewaySecret({ databaseUrl, gatewaySecret: readFileSync(path, 'utf8') }), first);
  });

  test('an empty GATEWAY_SECRET counts as unset', () => {
    const databaseUrl = `sqlite:${join(directory, 'empty', 'switchyard.db')}`;
    assert.equal(loadGatewaySecret({ databaseUrl, gatewaySecret: '' }).length, 64);
  });

  test('PostgreSQL without it is a clear error', () => {
    assert.throws(() => loadGatewaySecret({ databaseUrl: 'postgresql://db/switchyard' }), /GATEWAY_SECRET is required with PostgreSQL/);
  });

  test('sqlite::memory: gets a throwaway secret', () => {
    assert.notDeepEqual(loadGatewaySecret({ databaseUrl: 'sqlite::memory:' }), loadGatewaySecret({ databaseUrl: 'sqlite::memory:' }));
  });
});

describe('parseDatabaseUrl', () => {
  test('recognises sqlite paths, memory and both postgres schemes', () => {
    assert.deepEqual(parseDatabaseUrl('sqlite:./data/switchyard.db'), { dialect: 'sqlite', path: './data/switchyard.db' });
    assert.deepEqual(parseDatabaseUrl('sqlite::memory:'), { dialect: 'sqlite', path: ':memory:' });
    assert.deepEqual(parseDatabaseUrl('sqlite:///var/lib/s.db'), { dialect: 'sqlite', path: '/var/lib/s.db' });
    assert.equal(parseDatabaseUrl('postgres://u:p@h/d').dialect, 'postgres');
    assert.equal(parseDatabaseUrl('postgresql://u:p@h/d').dialect, 'postgres');
  });

  test('anything else is an error that does not echo credentials', () => {
    assert.throws(
      () => parseDatabaseUrl('mysql://user:hunter2@h/d'),
      (error: Error) => !error.message.includes('hunter2'),
    );
    assert.throws(() => parseDatabaseUrl('sqlite:'), /file path/);
  });
});
