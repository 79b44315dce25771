import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { UsageLogEntry } from '../../../src/domain/usage-log-entry.ts';
import type { ConformanceContext } from './conformance-context.ts';
import { START_TIME, usageEntry } from './conformance-context.ts';

export function describeUsage(context: ConformanceContext): void {
  describe('usage logs', () => {
    test('an entry round-trips field for field', async () => {
      const full = usageEntry();
      const sparse = usageEntry({
        requestId: 'req_2',
        time: START_TIME + 1,
        keyId: null,
        keyName: null,
        group: null,
        model: null,
        upstreamModel: null,
        channelId: null,
        channelName: null,
        clientProtocol: null,
        upstreamProtocol: null,
        surface: 'antigravity',
        status: 401,
        errorCode: 'GW_KEY_INVALID',
        errorMessage: 'invalid key',
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
        costMicros: 0,
        ttftMs: null,
        stream: false,
        warnings: [],
        attempts: [],
        clientIp: null,
      });
      await context.store.usage.insertMany([full, sparse]);
      assert.deepEqual(await context.store.usage.query({}), [sparse, full]);
    });

    test('a WebSocket turn keeps its transport; an HTTP one reads back without it', async () => {
      await context.store.usage.insertMany([
        usageEntry({ requestId: 'ws_1', transport: 'websocket' }),
        usageEntry({ requestId: 'http_1', time: START_TIME + 1, transport: 'http' }),
      ]);
      const [http, socket] = await context.store.usage.query({});
      assert.equal(socket?.transport, 'websocket');
      assert.equal(http?.transport, undefined);
    });

    test('query returns newest first, ties by request id, 100 by default, a large batch in one call', async () => {
      const entries = Array.from({ length: 450 }, (_, index) =>
        usageEntry({ requestId: `req_${String(index).padStart(3, '0')}`, time: START_TIME + Math.floor(index / 2) }),
      );
      await context.store.usage.insertMany(entries);
      const page = await context.store.usage.query({});
      assert.equal(page.length, 100);
      assert.deepEqual(
        page.slice(0, 3).map((entry) => entry.requestId),
        ['req_449', 'req_448', 'req_447'],
      );
      const all = await context.store.usage.query({ limit: 1_000 });
      assert.equal(all.length, 450);
      for (let index = 1; index < all.length; index += 1) {
        const previous = all[index - 1]!;
        const current = all[index]!;
        assert.ok(previous.time > current.time || (previous.time === current.time && previous.requestId > current.requestId), `entry ${index} is out of order`);
      }
    });

    test('filters narrow by key, group, model, channel, status and time', async () => {
      const entries: UsageLogEntry[] = [
        usageEntry({ requestId: 'a', time: START_TIME + 0, keyId: 'key_a', model: 'gpt-4o', channelId: 'ch_1', status: 200 }),
        usageEntry({ requestId: 'b', time: START_TIME + 10, keyId: 'key_b', group: 'vip', model: 'gpt-4o', channelId: 'ch_2', status: 429 }),
        usageEntry({ requestId: 'c', time: START_TIME + 20, keyId: 'key_a', model: 'claude', channelId: 'ch_2', status: 200 }),
        usageEntry({ requestId: 'd', time: START_TIME + 30, keyId: 'key_b', group: 'vip', model: 'claude', channelId: 'ch_1', status: 500 }),
      ];
      await context.store.usage.insertMany(entries);
      const ids = async (query: Parameters<typeof context.store.usage.query>[0]) => (await context.store.usage.query(query)).map((entry) => entry.requestId);
      assert.deepEqual(await ids({ keyId: 'key_a' }), ['c', 'a']);
      assert.deepEqual(await ids({ group: 'vip' }), ['d', 'b']);
      assert.deepEqual(await ids({ model: 'claude' }), ['d', 'c']);
      assert.deepEqual(await ids({ channelId: 'ch_2' }), ['c', 'b']);
      assert.deepEqual(await ids({ status: 200 }), ['c', 'a']);
      assert.deepEqual(await ids({ from: START_TIME + 10, to: START_TIME + 30 }), ['c', 'b']);
      assert.deepEqual(await ids({ before: START_TIME + 20 }), ['b', 'a']);
      assert.deepEqual(await ids({ before: START_TIME + 30, limit: 2 }), ['c', 'b']);
      assert.deepEqual(await ids({ keyId: 'key_b', model: 'gpt-4o', status: 429 }), ['b']);
      assert.deepEqual(await ids({ keyId: 'nobody' }), []);
    });

    test('a repeated request id is ignored so a retried batch does not double-log', async () => {
      await context.store.usage.insertMany([usageEntry({ requestId: 'r1', costMicros: 1 })]);
      await context.store.usage.insertMany([usageEntry({ requestId: 'r1', costMicros: 2 }), usageEntry({ requestId: 'r2' })]);
      const entries = await context.store.usage.query({});
      assert.deepEqual(entries.map((entry) => [entry.requestId, entry.costMicros]).sort(), [
        ['r1', 1],
        ['r2', 4_321],
      ]);
    });

    test('a batch with one bad entry inserts none of it', async () => {
      const good = Array.from({ length: 250 }, (_, index) => usageEntry({ requestId: `g${index}` }));
      const bad = usageEntry({ requestId: 'bad', status: null as unknown as number });
      await assert.rejects(context.store.usage.insertMany([...good, bad]));
      assert.deepEqual(await context.store.usage.query({}), []);
    });

    test('the keyset cursor walks every row once, ties in one millisecond included', async () => {
      const entries = Array.from({ length: 250 }, (_, index) =>
        usageEntry({ requestId: `tie_${String(index).padStart(3, '0')}`, time: START_TIME + Math.floor(index / 7) }),
      );
      await context.store.usage.insertMany(entries);
      const seen: string[] = [];
      let cursor: { before?: number; beforeRequestId?: string } = {};
      for (;;) {
        const page = await context.store.usage.query({ limit: 30, ...cursor });
        seen.push(...page.map((entry) => entry.requestId));
        if (page.length < 30) break;
        const last = page.at(-1)!;
        cursor = { before: last.time, beforeRequestId: last.requestId };
      }
      assert.deepEqual(seen, entries.map((entry) => entry.requestId).reverse());
    });

    test('pruneBefore deletes more rows than one batch, all of them, and keeps the rest', async () => {
      const old = Array.from({ length: 4_500 }, (_, index) => usageEntry({ requestId: `old_${index}`, time: START_TIME - 1 - (index % 50) }));
      await context.store.usage.insertMany([...old, usageEntry({ requestId: 'kept', time: START_TIME })]);
      assert.equal(await context.store.usage.pruneBefore(START_TIME), 4_500);
      assert.deepEqual(
        (await context.store.usage.query({})).map((entry) => entry.requestId),
        ['kept'],
      );
    });

    test('pruneBefore deletes strictly older entries and returns how many', async () => {
      await context.store.usage.insertMany([
        usageEntry({ requestId: 'old1', time: START_TIME - 2 }),
        usageEntry({ requestId: 'old2', time: START_TIME - 1 }),
        usageEntry({ requestId: 'edge', time: START_TIME }),
        usageEntry({ requestId: 'new', time: START_TIME + 1 }),
      ]);
      assert.equal(await context.store.usage.pruneBefore(START_TIME), 2);
      assert.deepEqual(
        (await context.store.usage.query({})).map((entry) => entry.requestId),
        ['new', 'edge'],
      );
      assert.equal(await context.store.usage.pruneBefore(START_TIME), 0);
    });
  });
}
