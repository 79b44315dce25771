import assert from 'node:assert/strict';
import { test } from 'node:test';
import { centsToMicros, parseUpstreamBill } from '../../src/ledger/parse-upstream-bill.ts';
import { reconcileCosts } from '../../src/ledger/reconcile-costs.ts';
import { ReconciliationEvents } from '../../src/ledger/reconciliation-events.ts';

// Shapes as Anthropic's Admin API documents them: GET /v1/organizations/cost_report (amounts are
// cents, as decimal strings) and /v1/organizations/usage_report/messages.
const anthropicCostReport = {
  data: [
    {
      starting_at: '2026-11-01T00:00:00Z',
      ending_at: '2026-11-02T00:00:00Z',
      results: [
        {
          currency: 'USD',
          amount: '150.0000',
          workspace_id: null,
          description: 'Claude Sonnet 4.5 Usage - Input Tokens',
          cost_type: 'tokens',
          context_window: '0-200k',
          model: 'claude-sonnet-4-5',
          service_tier: 'standard',
          token_type: 'uncached_input_tokens',
        },
        {
          currency: 'USD',
          amount: '75.12345',
          workspace_id: null,
          description: 'Claude Sonnet 4.5 Usage - Output Tokens',
          cost_type: 'tokens',
          context_window: '0-200k',
          model: 'claude-sonnet-4-5',
          service_tier: 'standard',
          token_type: 'output_tokens',
        },
      ],
    },
    {
      starting_at: '2026-11-02T00:00:00Z',
      ending_at: '2026-11-03T00:00:00Z',
      results: [
        {
          currency: 'USD',
          amount: '400',
          workspace_id: null,
          description: null,
          cost_type: 'tokens',
          context_window: null,
          model: 'claude-sonnet-4-5',
          service_tier: 'standard',
          token_type: null,
        },
      ],
    },
  ],
  has_more: false,
  next_page: null,
};
const anthropicUsageReport = {
  data: [
    {
      starting_at: '2026-11-01T00:00:00Z',
      ending_at: '2026-11-02T00:00:00Z',
      results: [
        {
          uncached_input_tokens: 500_000,
          cache_creation: { ephemeral_1h_input_tokens: 1_000, ephemeral_5m_input_tokens: 2_000 },
          cache_read_input_tokens: 30_000,
          output_tokens: 50_082,
          server_tool_use: { web_search_requests: 0 },
          model: 'claude-sonnet-4-5',
        },
      ],
    },
  ],
  has_more: false,
  next_page: null,
};

test('Anthropic cost report: cents as decimal strings, summed per day and model, exactly', () => {
  assert.equal(centsToMicros('123.45'), 1_234_500, 'the docs: "123.45" USD is $1.23(45)');
  assert.equal(centsToMicros('75.12345'), 751_235, 'half a micro-USD rounds up');
  const bills = parseUpstreamBill('anthropic', [anthropicCostReport, anthropicUsageReport], 'ch_claude');
  assert.deepEqual(
    bills.map((bill) => [bill.day, bill.model, bill.costMicros, bill.tokens]),
    [
      ['2026-11-01', 'claude-sonnet-4-5', 1_500_000 + 751_235, { input: 500_000, output: 50_082, cacheRead: 30_000, cacheWrite5m: 2_000, cacheWrite1h: 1_000 }],
      ['2026-11-02', 'claude-sonnet-4-5', 4_000_000, {}],
    ],
  );
});

test('OpenAI organization costs and usage pages: USD amounts by line item, tokens by model', () => {
  const start = Date.parse('2026-11-01T00:00:00Z') / 1000;
  const costs = {
    object: 'page',
    data: [
      {
        object: 'bucket',
        start_time: start,
        end_time: start + 86_400,
        results: [
          { object: 'organization.costs.result', amount: { value: 1.25, currency: 'usd' }, line_item: 'gpt-4o-2024-08-06, input', project_id: null },
          { object: 'organization.costs.result', amount: { value: 0.5, currency: 'usd' }, line_item: 'gpt-4o-2024-08-06, output', project_id: null },
        ],
      },
    ],
    has_more: false,
    next_page: null,
  };
  const usage = {
    object: 'page',
    data: [
      {
        object: 'bucket',
        start_time: start,
        end_time: start + 86_400,
        results: [
          {
            object: 'organization.usage.completions.result',
            input_tokens: 500_000,
            output_tokens: 50_000,
            input_cached_tokens: 100_000,
            num_model_requests: 20,
            model: 'gpt-4o-2024-08-06',
          },
        ],
      },
    ],
    has_more: false,
    next_page: null,
  };
  assert.deepEqual(parseUpstreamBill('openai', [costs, usage], 'ch_openai'), [
    {
      channelId: 'ch_openai',
      day: '2026-11-01',
      model: 'gpt-4o-2024-08-06',
      costMicros: 1_750_000,
      tokens: { input: 500_000, output: 50_000, cacheRead: 100_000 },
      source: 'openai',
    },
  ]);
  assert.throws(() => parseUpstreamBill('openai', { error: { message: 'bad key' } }, 'ch_openai'), /"data" list of buckets/);
});

test('a generic CSV, quoted fields included; a bad line is refused by number', () => {
  const csv = 'date,model,input_tokens,output_tokens,cost_usd\n2026-11-01,"gpt-4o, batch",10,5,0.000123\n';
  assert.deepEqual(
    parseUpstreamBill('csv', csv, 'c').map((bill) => [bill.model, bill.costMicros, bill.tokens]),
    [['gpt-4o, batch', 123, { input: 10, output: 5 }]],
  );
  assert.throws(() => parseUpstreamBill('csv', 'date,cost_usd\n11/01/2026,1\n', 'c'), /line 2: date/);
});

test('drift per channel per day: the planted drift is found and raised, the clean day is clean, a day without a bill is said so', () => {
  const bills = parseUpstreamBill('anthropic', anthropicCostReport, 'ch_claude');
  const ledger = [
    { channelId: 'ch_claude', day: '2026-11-01', costMicros: 2_251_235 },
    // The planted drift: the gateway recorded $3.00 where Anthropic billed $4.00.
    { channelId: 'ch_claude', day: '2026-11-02', costMicros: 3_000_000 },
    { channelId: 'ch_claude', day: '2026-11-03', costMicros: 10 },
  ];
  const days = reconcileCosts(ledger, bills, { percent: 2, minMicros: 10_000 });
  assert.deepEqual(
    days.map((day) => [day.day, day.status, day.driftMicros, day.driftPercent]),
    [
      ['2026-11-01', 'clean', 0, 0],
      ['2026-11-02', 'drift', 1_000_000, 25],
      ['2026-11-03', 'no-bill', -10, 100],
    ],
  );
  const events = new ReconciliationEvents();
  const heard: string[] = [];
  events.subscribe((event) => heard.push(`${event.type} ${event.channelName} ${event.day} ${event.driftMicros}`));
  events.subscribe(() => {
    throw new Error('a broken subscriber');
  });
  events.emitDrift(days, { thresholdPercent: 2, at: 0, channelName: () => 'claude-main' });
  assert.deepEqual(heard, ['reconciliation.drift claude-main 2026-11-02 1000000']);
});
