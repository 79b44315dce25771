import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConformanceContext } from './conformance-context.ts';
import { START_TIME } from './conformance-context.ts';

export function describePricesAndSettings(context: ConformanceContext): void {
  describe('prices', () => {
    test('upsert creates and then replaces; list is sorted by model; delete reports existence', async () => {
      const created = await context.store.prices.upsert({
        model: 'gpt-4o',
        inputPerMillion: 2_500_000,
        outputPerMillion: 10_000_000,
        cacheReadPerMillion: 1_250_000,
        cacheWritePerMillion: null,
      });
      // Every upsert is a new sell price version, which the row names.
      const { version, ...figures } = created;
      assert.match(version ?? '', /^pv_/);
      assert.deepEqual(figures, {
        model: 'gpt-4o',
        inputPerMillion: 2_500_000,
        outputPerMillion: 10_000_000,
        cacheReadPerMillion: 1_250_000,
        cacheWritePerMillion: null,
        updatedAt: START_TIME,
      });
      await context.store.prices.upsert({
        model: 'claude-sonnet-4',
        inputPerMillion: 3_000_000,
        outputPerMillion: 15_000_000,
        cacheReadPerMillion: null,
        cacheWritePerMillion: 3_750_000,
      });
      context.clock.advance(10);
      const replaced = await context.store.prices.upsert({ ...created, inputPerMillion: 2_000_000, cacheReadPerMillion: null });
      assert.equal(replaced.updatedAt, START_TIME + 10);
      const prices = await context.store.prices.list();
      assert.deepEqual(
        prices.map((price) => [price.model, price.inputPerMillion, price.cacheReadPerMillion, price.cacheWritePerMillion]),
        [
          ['claude-sonnet-4', 3_000_000, null, 3_750_000],
          ['gpt-4o', 2_000_000, null, null],
        ],
      );
      assert.deepEqual(prices[1], replaced);
      assert.equal(await context.store.prices.delete('gpt-4o'), true);
      assert.equal(await context.store.prices.delete('gpt-4o'), false);
      assert.equal((await context.store.prices.list()).length, 1);
    });

    test('image prices (a flat figure, a size × quality table, image tokens) are kept and replaced', async () => {
      const table = { '1024x1024': { standard: 40_000, hd: 80_000 }, '1792x1024': { hd: 120_000 } };
      const created = await context.store.prices.upsert({
        model: 'dall-e-3',
        inputPerMillion: 0,
        outputPerMillion: 0,
        cacheReadPerMillion: null,
        cacheWritePerMillion: null,
        images: { perImage: table, outputPerMillion: 40_000_000 },
      });
      assert.deepEqual(created.images, { perImage: table, outputPerMillion: 40_000_000 });
      assert.deepEqual((await context.store.prices.list()).find((price) => price.model === 'dall-e-3')?.images, {
        perImage: table,
        outputPerMillion: 40_000_000,
      });
      await context.store.prices.upsert({ ...created, images: { perImage: 20_000 } });
      assert.deepEqual((await context.store.prices.list()).find((price) => price.model === 'dall-e-3')?.images, { perImage: 20_000 });
      const { images: _images, ...withoutImages } = created;
      await context.store.prices.upsert(withoutImages);
      assert.equal((await context.store.prices.list()).find((price) => price.model === 'dall-e-3')?.images, undefined);
      await assert.rejects(context.store.prices.upsert({ ...withoutImages, images: { perImage: { '1024x1024': { hd: 0.5 } } } }), /whole micro-USD/);
      await context.store.prices.delete('dall-e-3');
    });

    test('audio and rerank prices (per second, per million characters, audio tokens, per search unit) are kept and cleared', async () => {
      const media = { perSecond: 100, perMillionCharacters: 15_000_000, audioInputPerMillion: 6_000_000, perSearchUnit: 2_000 };
      const created = await context.store.prices.upsert({
        model: 'whisper-1',
        inputPerMillion: 0,
        outputPerMillion: 0,
        cacheReadPerMillion: null,
        cacheWritePerMillion: null,
        media,
      });
      assert.deepEqual(created.media, media);
      assert.deepEqual((await context.store.prices.list()).find((price) => price.model === 'whisper-1')?.media, media);
      const { media: _media, ...withoutMedia } = created;
      await context.store.prices.upsert(withoutMedia);
      assert.equal((await context.store.prices.list()).find((price) => price.model === 'whisper-1')?.media, undefined);
      await assert.rejects(context.store.prices.upsert({ ...withoutMedia, media: { perSecond: 0.5 } }), /whole micro-USD/);
      await context.store.prices.delete('whisper-1');
    });

    test('prices must be whole micro-USD', async () => {
      await assert.rejects(
        context.store.prices.upsert({
          model: 'm',
          inputPerMillion: 0.25,
          outputPerMillion: 1,
          cacheReadPerMillion: null,
          cacheWritePerMillion: null,
        }),
        /integer/,
      );
    });
  });

  describe('settings', () => {
    test('get of an unknown name is undefined; set stores and overwrites', async () => {
      assert.equal(await context.store.settings.get('admin-token-hash'), undefined);
      await context.store.settings.set('admin-token-hash', 'abc');
      assert.equal(await context.store.settings.get('admin-token-hash'), 'abc');
      await context.store.settings.set('admin-token-hash', 'def');
      assert.equal(await context.store.settings.get('admin-token-hash'), 'def');
      await context.store.settings.set('empty', '');
      assert.equal(await context.store.settings.get('empty'), '');
    });
  });
}
