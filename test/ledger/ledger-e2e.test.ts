import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { callSurface } from '../access/surface-calls.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { postgresDatabase } from '../helpers/postgres-database.ts';

const today = () => new Date().toISOString().slice(0, 10);

// Issue 27 through the gateway: strict pricing by default, the catalogue, a channel's discount,
// the ledger rows of a request, a price change, margin and its export, reconciliation.
for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`the ledger on ${dialect}`, { timeout: 120_000 }, () => {
    let harness: Harness;
    let database: { url: string; drop: () => Promise<void> } | undefined;
    let channel: { id: string };
    let key: { id: string; key: string };

    before(async () => {
      database = dialect === 'postgres' ? await postgresDatabase() : undefined;
      // STRICT_PRICING is the default: the harness turns it off for other tests, this one keeps it.
      harness = await startHarness({
        strictPricing: true,
        ...(database ? { databaseUrl: database.url, gatewaySecret: 'ledger-test-gateway-secret-0123456789abc' } : {}),
      });
      channel = await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini', 'no-price-model'] });
      harness.simulator.setDefault({ text: 'ok', usage: { input: 100_000, output: 50 } });
      key = await harness.addKey({ name: 'payer', balance: 100 });
    });
    after(async () => {
      await harness?.close();
      await database?.drop();
    });

    test('an unpriced model is refused before any upstream call, and listed as unpriced', async () => {
      const sent = harness.simulator.requests.length;
      const refused = await callSurface(harness.url, 'openai-chat', { key: key.key, model: 'no-price-model' });
      assert.equal(refused.status, 403);
      assert.equal(refused.code, 'model_not_priced');
      assert.equal(harness.simulator.requests.length, sent, 'no upstream call');
      const unpriced = await harness.admin('GET', '/prices/unpriced');
      assert.deepEqual(unpriced, { data: ['gpt-4o-mini', 'no-price-model'], strictPricing: true });
    });

    test('the shipped catalogue loads once; loading it again adds no version', async () => {
      const first = await harness.admin('POST', '/prices/catalogue/default', undefined, 201);
      assert.ok(first.added.length >= 30);
      assert.match(first.added[0].source, /\(\d{4}-\d{2}-\d{2}\)$/);
      const again = await harness.admin('POST', '/prices/catalogue/default', undefined, 201);
      assert.equal(again.added.length, 0);
      assert.deepEqual((await harness.admin('GET', '/prices/unpriced')).data, ['no-price-model']);
    });

    test('each attempt is costed at the channel price, each payer charged at the sell price, both naming their versions; a price change reprices nothing', async () => {
      await harness.admin('POST', `/prices/channels/${channel.id}/discount`, { percent: 20 }, 201);
      const sell = await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 100, output: 200 }, 201);
      const first = await callSurface(harness.url, 'openai-chat', { key: key.key });
      assert.equal(first.status, 200);
      const rows = await harness.admin('GET', `/ledger/requests/${first.requestId}`);
      const catalogue = (await harness.admin('GET', '/prices/history?scope=catalogue&model=gpt-4o-mini')).data[0];
      assert.equal(rows.attempts.length, 1);
      // Catalogue $0.15 / $0.60 per M less 20%: (100,000 × 0.15 + 50 × 0.60) × 0.8 = 12,024 µUSD.
      assert.equal(rows.attempts[0].costMicros, 12_024);
      assert.equal(rows.attempts[0].costVersion, catalogue.id);
      assert.equal(rows.attempts[0].channelId, channel.id);
      assert.equal(rows.attempts[0].charged, true);
      assert.equal(rows.attempts[0].keySlot, 0);
      // The upstream's own usage object, as it sent it: the field read is checkable against the price.
      assert.equal(rows.attempts[0].rawUsage.prompt_tokens, 100_000);
      assert.equal(rows.attempts[0].rawUsage.completion_tokens, 50);
      assert.equal(rows.attempts[0].rawUsageTruncated, false);
      // Sell $100 / $200 per M: 10,000,000 + 10,000 µUSD.
      assert.deepEqual(
        rows.charges.map((charge: any) => [charge.payerKind, charge.sellMicros, charge.sellVersion]),
        [['key_balance', 10_010_000, sell.version]],
      );

      const raised = await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 200, output: 200 }, 201);
      const second = await callSurface(harness.url, 'openai-chat', { key: key.key });
      const secondRows = await harness.admin('GET', `/ledger/requests/${second.requestId}`);
      assert.equal(secondRows.charges[0].sellMicros, 20_010_000);
      assert.equal(secondRows.charges[0].sellVersion, raised.version);
      assert.deepEqual(await harness.admin('GET', `/ledger/requests/${first.requestId}`), rows, 'the first request still names the old version and amount');
    });

    test('margin per day × model, with an export whose totals match the page', async () => {
      const page = await harness.admin('GET', '/margin?by=model');
      assert.equal(page.totals.revenueMicros, 30_020_000);
      assert.equal(page.totals.costMicros, 2 * 12_024);
      assert.equal(page.totals.marginMicros, 30_020_000 - 24_048);
      assert.deepEqual(
        page.data.map((row: any) => [row.day, row.key, row.requests]),
        [[today(), 'gpt-4o-mini', 2]],
      );
      const csv = await (await fetch(`${harness.url}/api/admin/margin?by=channel&format=csv`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
      const [header, ...lines] = csv.trim().split('\n');
      assert.equal(header, 'day,channel,requests,revenue_micros,cost_micros,margin_micros,revenue_usd,cost_usd,margin_usd');
      const sum = (column: number) => lines.reduce((total, line) => total + Number(line.split(',')[column]), 0);
      assert.deepEqual([sum(3), sum(4), sum(5)], [page.totals.revenueMicros, page.totals.costMicros, page.totals.marginMicros]);
      const filtered = await harness.admin('GET', `/margin?by=group&channel=${channel.id}&model=nothing-like-this`);
      assert.deepEqual(filtered.data, []);
    });

    test('reconciliation: a bill that matches is clean, a planted drift is found and raised as an event', async () => {
      await harness.admin('POST', '/reconciliation/threshold', { percent: 1, minUsd: 0.001 });
      const csv = `date,model,input_tokens,output_tokens,cost_usd\n${today()},gpt-4o-mini,200000,100,0.024048\n`;
      const clean = await harness.admin('POST', `/reconciliation/channels/${channel.id}/bills`, { format: 'csv', data: csv }, 201);
      assert.deepEqual(
        clean.data.map((day: any) => [day.day, day.status, day.driftMicros]),
        [[today(), 'clean', 0]],
      );
      assert.deepEqual(clean.events, []);
      // OpenAI's organization costs page for the same day, $0.05 more than the gateway recorded.
      const start = Math.floor(Date.parse(`${today()}T00:00:00Z`) / 1000);
      const costs = {
        object: 'page',
        data: [
          {
            object: 'bucket',
            start_time: start,
            end_time: start + 86_400,
            results: [{ object: 'organization.costs.result', amount: { value: 0.074048, currency: 'usd' }, line_item: 'gpt-4o-mini, input', project_id: null }],
          },
        ],
        has_more: false,
        next_page: null,
      };
      const drift = await harness.admin('POST', `/reconciliation/channels/${channel.id}/bills`, { format: 'openai', data: costs }, 201);
      assert.equal(drift.data[0].status, 'drift');
      assert.equal(drift.data[0].driftMicros, 50_000);
      assert.equal(drift.events[0].type, 'reconciliation.drift');
      assert.equal(drift.events[0].channelId, channel.id);
      const bad = await harness.admin('POST', `/reconciliation/channels/${channel.id}/bills`, { format: 'anthropic', data: { nope: true } }, 400);
      assert.match(bad.error.message, /data: expected the export page/);
    });
  });
}
