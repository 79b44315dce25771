import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

const UPSTREAM_SECRETS = ['sk-plain-upstream-Qw3rTy7uIoP1aSdFgHjK', 'sk-plain-second-Zx9cVbNm2LkJhGfDsA0q'];

/** Every value of every row of every table, as text (blobs decoded), with where it came from. */
function everyStoredValue(databasePath: string): Array<{ where: string; text: string }> {
  const database = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
    const values: Array<{ where: string; text: string }> = [];
    for (const { name } of tables) {
      for (const row of database.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>) {
        for (const [column, value] of Object.entries(row)) {
          const text = Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
          values.push({ where: `${name}.${column}`, text });
        }
      }
    }
    return values;
  } finally {
    database.close();
  }
}

/** The forms a leaked secret could take in a file: as is, base64, hex. */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [secret, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')];
}

describe('secrets at rest and in admin answers', () => {
  let harness: Harness;
  let clientKey: { id: string; key: string; created: Record<string, unknown> };
  let channelId: string;
  let answers: unknown[] = [];

  before(async () => {
    harness = await startHarness();
    const channel = await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'], apiKey: UPSTREAM_SECRETS[0] });
    channelId = channel.id;
    const created = await harness.admin('POST', '/keys', { name: 'alice', group: 'default' }, 201);
    clientKey = { id: created.id, key: created.key, created };

    // A real request, so the usage log holds a row for this key too.
    harness.simulator.enqueue({ text: 'ok' });
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clientKey.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(response.status, 200);
    await response.text();

    answers = [
      channel,
      await harness.admin('GET', '/channels'),
      await harness.admin('GET', `/channels/${channelId}`),
      await harness.admin('PATCH', `/channels/${channelId}`, { apiKeys: UPSTREAM_SECRETS }),
      await harness.admin('GET', '/keys'),
      await harness.admin('GET', `/keys/${clientKey.id}`),
      await harness.admin('PATCH', `/keys/${clientKey.id}`, { name: 'alice-renamed' }),
      await harness.admin('GET', '/logs'),
    ];
  });
  after(() => harness.close());

  test('the upstream secret reaches the upstream, decrypted', () => {
    assert.equal(harness.simulator.lastRequest()?.headers.authorization, `Bearer ${UPSTREAM_SECRETS[0]}`);
  });

  test('the admin API shows upstream secrets only masked', () => {
    const text = JSON.stringify(answers);
    for (const secret of UPSTREAM_SECRETS) assert.ok(!text.includes(secret), 'an upstream secret left the gateway');
    const channel = answers[2] as { apiKeys: string[]; apiKeyCount: number };
    assert.deepEqual(channel.apiKeys, ['sk-p…gHjK']);
    const rotated = answers[3] as { apiKeys: string[]; apiKeyCount: number };
    assert.deepEqual(rotated.apiKeys, ['sk-p…gHjK', 'sk-p…sA0q']);
    assert.equal(rotated.apiKeyCount, 2);
  });

  test('the admin API shows a client key secret only once, at creation', () => {
    assert.match(clientKey.key, /^sk-[A-Za-z0-9]{40,}$/);
    assert.equal(clientKey.created.key, clientKey.key);
    assert.ok(!JSON.stringify(answers).includes(clientKey.key), 'the key secret was shown again');
    assert.ok(!JSON.stringify(answers).includes(clientKey.key.slice(7, 40)), 'most of the key secret was shown again');
  });

  test('the database holds no plain secret in any table: channel secrets sealed, client keys as SHA-256 only', async () => {
    // Closing checkpoints the WAL, so the main file holds everything; harness.close() later is a no-op for it.
    await harness.gateway.close();
    const values = everyStoredValue(harness.databasePath);
    assert.ok(values.length > 20, 'expected rows to inspect');
    for (const secret of [...UPSTREAM_SECRETS, clientKey.key]) {
      for (const form of encodings(secret)) {
        const leak = values.find((value) => value.text.includes(form));
        assert.equal(leak, undefined, `a secret is stored in the clear in ${leak?.where}`);
      }
    }

    const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    const database = new Database(harness.databasePath, { readonly: true });
    try {
      const key = database.prepare('SELECT * FROM api_keys WHERE id = ?').get(clientKey.id) as Record<string, unknown>;
      assert.equal(key.key_hash, sha256(clientKey.key));
      const channel = database.prepare('SELECT api_keys_sealed FROM channels WHERE id = ?').get(channelId) as { api_keys_sealed: string };
      assert.match(channel.api_keys_sealed, /^v1:[\w-]+:[\w-]+:[\w-]+$/);
    } finally {
      database.close();
    }
  });

  test('no database file on disk contains a plain secret', () => {
    const files = ['', '-wal', '-shm', '-journal'].map((suffix) => harness.databasePath + suffix).filter((path) => existsSync(path));
    assert.ok(files.length >= 1);
    for (const path of files) {
      const bytes = readFileSync(path);
      for (const secret of [...UPSTREAM_SECRETS, clientKey.key]) {
        for (const form of encodings(secret)) assert.equal(bytes.indexOf(form), -1, `${path} contains a secret`);
      }
    }
  });
});

describe('a generated admin token', () => {
  test('is stored only as its hash', async () => {
    const harness = await startHarness({ adminToken: undefined });
    try {
      const token = harness.gateway.generatedAdminToken;
      assert.match(token ?? '', /^sya-[A-Za-z0-9]{40}$/);
      const works = await fetch(`${harness.url}/api/admin/groups`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(works.status, 200);
      await harness.gateway.close();
      const values = everyStoredValue(harness.databasePath);
      for (const form of encodings(token ?? ''))
        assert.equal(
          values.find((value) => value.text.includes(form)),
          undefined,
        );
      const hash = createHash('sha256')
        .update(token ?? '', 'utf8')
        .digest('hex');
      assert.ok(
        values.some((value) => value.where.startsWith('settings.') && value.text === hash),
        'the token hash is not stored',
      );
    } finally {
      await harness.close();
    }
  });
});
