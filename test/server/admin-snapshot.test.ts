import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/** Admin changes reach the in-memory snapshot before the admin call answers. */
describe('admin changes take effect on the very next request', () => {
  let harness: Harness;

  const listModels = async (key: string): Promise<{ status: number; ids: string[]; body: any }> => {
    const response = await fetch(`${harness.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as any;
    return { status: response.status, ids: response.ok ? body.data.map((model: { id: string }) => model.id).sort() : [], body };
  };

  const chat = async (key: string, model: string) => {
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  before(async () => {
    harness = await startHarness();
    await harness.admin('POST', '/groups', { name: 'premium' }, 201);
    await harness.addChannel({ provider: 'openai', models: ['base-model'] });
  });
  after(() => harness.close());

  test('a new key works at once; disabling it, re-enabling it and deleting it apply at once', async () => {
    const created = await harness.admin('POST', '/keys', { name: 'fresh', group: 'default' }, 201);
    assert.match(created.key, /^sk-[A-Za-z0-9]{40,}$/);
    assert.deepEqual(await listModels(created.key).then((result) => [result.status, result.ids]), [200, ['base-model']]);

    await harness.admin('PATCH', `/keys/${created.id}`, { enabled: false });
    // A disabled key is known but refused (403), unlike an unknown one (401).
    const disabled = await listModels(created.key);
    assert.equal(disabled.status, 403);
    assert.equal(disabled.body.error.code, 'key_disabled');
    assert.equal((await chat(created.key, 'base-model')).status, 403);

    await harness.admin('PATCH', `/keys/${created.id}`, { enabled: true });
    assert.equal((await listModels(created.key)).status, 200);

    await harness.admin('DELETE', `/keys/${created.id}`, undefined, 204);
    const deleted = await listModels(created.key);
    assert.equal(deleted.status, 401);
    assert.equal(deleted.body.error.code, 'invalid_api_key');
    harness.simulator.reset();
    assert.equal((await chat(created.key, 'base-model')).status, 401);
    assert.equal(harness.simulator.requests.length, 0, 'a revoked key reached the upstream');
  });

  test('moving a key to another group changes its models at once', async () => {
    const { id, key } = await harness.addKey();
    await harness.addChannel({ provider: 'openai', models: ['premium-model'], groups: ['premium'] });
    assert.deepEqual((await listModels(key)).ids, ['base-model']);
    await harness.admin('PATCH', `/keys/${id}`, { group: 'premium' });
    assert.deepEqual((await listModels(key)).ids, ['premium-model']);
  });

  test('patching a channel adds and removes models, moves groups and disables it at once', async () => {
    const { key } = await harness.addKey();
    const { key: premiumKey } = await harness.addKey({ group: 'premium' });
    const channel = await harness.addChannel({ provider: 'openai', models: ['alpha'] });
    assert.deepEqual((await listModels(key)).ids, ['alpha', 'base-model']);

    await harness.admin('PATCH', `/channels/${channel.id}`, { models: ['alpha', 'beta'] });
    assert.deepEqual((await listModels(key)).ids, ['alpha', 'base-model', 'beta']);
    harness.simulator.enqueue({ text: 'from beta' });
    const reply = await chat(key, 'beta');
    assert.equal(reply.status, 200);
    assert.equal(reply.body.choices[0].message.content, 'from beta');

    await harness.admin('PATCH', `/channels/${channel.id}`, { models: ['beta'] });
    assert.deepEqual((await listModels(key)).ids, ['base-model', 'beta']);
    const gone = await chat(key, 'alpha');
    assert.equal(gone.status, 404);

    await harness.admin('PATCH', `/channels/${channel.id}`, { groups: ['premium'] });
    assert.deepEqual((await listModels(key)).ids, ['base-model']);
    assert.ok((await listModels(premiumKey)).ids.includes('beta'));

    await harness.admin('PATCH', `/channels/${channel.id}`, { enabled: false });
    assert.ok(!(await listModels(premiumKey)).ids.includes('beta'));
    await harness.admin('PATCH', `/channels/${channel.id}`, { enabled: true });
    assert.ok((await listModels(premiumKey)).ids.includes('beta'));

    await harness.admin('DELETE', `/channels/${channel.id}`, undefined, 204);
    assert.ok(!(await listModels(premiumKey)).ids.includes('beta'));
  });

  test('a channel model map applies to the next request', async () => {
    const { key } = await harness.addKey();
    const channel = await harness.addChannel({ provider: 'openai', models: ['public-name'] });
    harness.simulator.enqueue({ text: 'one' });
    assert.equal((await chat(key, 'public-name')).status, 200);
    assert.equal((harness.simulator.lastRequest()?.body as { model: string }).model, 'public-name');

    await harness.admin('PATCH', `/channels/${channel.id}`, { modelMap: { 'public-name': 'upstream-name' } });
    harness.simulator.enqueue({ text: 'two' });
    assert.equal((await chat(key, 'public-name')).status, 200);
    assert.equal((harness.simulator.lastRequest()?.body as { model: string }).model, 'upstream-name');
  });
});
