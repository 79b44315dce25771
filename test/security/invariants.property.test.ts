import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { HostileReply } from './hostile-upstream.ts';
import { chatCompletion } from './hostile-upstream.ts';
import { CHANNEL_SECRET, eventually, startSecurityHarness, type SecurityHarness } from './security-harness.ts';

/**
 * The invariants of issue 14 under random input: random admin bodies and random upstream
 * replies (sizes, usage values, error texts quoting the secret) against one real gateway.
 * - no 5xx from bad input (admin bodies, client bodies), and never an internal error;
 * - no balance above its top-ups minus its charges: the ledger equals the usage log, exactly;
 * - no secret (nor any 10-character run of it) in any answer, log row or log line;
 * - no batch stuck: every request reaches the usage log and every charge the balance.
 */

const FRAGMENT = CHANNEL_SECRET.slice(8, 18);
const TOP_UP_USD = 5;

/** Numbers an adversary would try on a money field. */
const nastyNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1e308, -1e308, 1e-320, 2 ** 53, 2 ** 63, 1001, 100_001, 1e9 + 1, 0.1 + 0.2),
  fc.double({ noNaN: false }),
  fc.integer(),
);
const anyValue = fc.oneof(
  nastyNumber,
  fc.string({ maxLength: 40 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), nastyNumber), { maxLength: 4 }),
  fc.object({ maxDepth: 2 }),
);

const secretEcho = fc.constantFrom(
  CHANNEL_SECRET,
  `Incorrect API key provided: ${CHANNEL_SECRET.slice(0, 14)}****${CHANNEL_SECRET.slice(-4)}`,
  `Bearer ${CHANNEL_SECRET}`,
  encodeURIComponent(CHANNEL_SECRET),
);

/** A random upstream reply: a completion with random usage, an error quoting the secret, or junk of random size. */
const upstreamReply: fc.Arbitrary<HostileReply> = fc.oneof(
  fc
    .record({
      prompt: fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(1e20, -1e20, 0.5, -0.5)),
      completion: fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(1e20, -1e20, 0.5)),
      dropUsage: fc.boolean(),
    })
    .map(({ prompt, completion, dropUsage }) => {
      const body = chatCompletion('prop-model', { prompt, completion }) as Record<string, unknown>;
      if (dropUsage) delete body.usage;
      return { status: 200, body };
    }),
  fc
    .record({
      status: fc.constantFrom(400, 401, 402, 403, 404, 413, 422, 429, 500, 502, 503, 529),
      echo: secretEcho,
      type: fc.constantFrom('invalid_request_error', 'billing', 'insufficient_quota', 'server_error', CHANNEL_SECRET),
      padding: fc.nat({ max: 40_000 }),
    })
    .map(({ status, echo, type, padding }) => ({
      status,
      body: { error: { message: `upstream says: ${echo} ${'x'.repeat(padding)}`, type, code: echo } },
    })),
  fc
    .record({ status: fc.constantFrom(200, 400, 500), size: fc.nat({ max: 200_000 }), echo: secretEcho })
    .map(({ status, size, echo }) => ({ status, body: `<html>${echo}${'y'.repeat(size)}` })),
);

describe('security invariants under random input', () => {
  let h: SecurityHarness;
  let keyId: string;
  let key: string;
  let sent = 0;
  const next: HostileReply[] = [];

  before(async () => {
    h = await startSecurityHarness({ circuit: { windowMs: 1_000, minimumRequests: 1_000, errorRateThreshold: 1, cooldownMs: 10, maxCooldownMs: 10 } });
    await h.addHostileChannel({ models: ['prop-model'] });
    // Junk client requests go to a model on a channel of their own, so the random replies of
    // the other requests (a 401 taking the key out, a 529 retried) never decide their answer.
    await h.addHostileChannel({ models: ['junk-model'] });
    await h.admin('POST', '/prices', { model: 'prop-model', input: 1, output: 2 });
    ({ id: keyId, key } = await h.addKey({ balance: TOP_UP_USD }));
    h.upstream.answer((request) => {
      // Junk from the client: on the passthrough lane the upstream judges it, and says 400 as the real API does.
      if ((request.body as { model?: unknown }).model === 'junk-model') {
        return { status: 400, body: { error: { message: 'messages: expected an array', type: 'invalid_request_error' } } };
      }
      return next.shift() ?? { status: 500, body: 'nothing scripted' };
    });
  });
  after(() => h.close());

  test('random admin bodies never get a 5xx', async () => {
    const routes: Array<[string, string, fc.Arbitrary<Record<string, unknown>>]> = [
      [
        'POST',
        '/groups',
        fc.record({ name: fc.oneof(fc.string({ maxLength: 12 }), anyValue), priceMultiplier: anyValue, description: anyValue }, { requiredKeys: [] }),
      ],
      ['PATCH', '/groups/default', fc.record({ priceMultiplier: anyValue, description: anyValue }, { requiredKeys: [] })],
      [
        'POST',
        '/prices',
        fc.record(
          { model: fc.oneof(fc.string({ maxLength: 12 }), anyValue), input: anyValue, output: anyValue, cacheRead: anyValue, cacheWrite: anyValue },
          { requiredKeys: [] },
        ),
      ],
      [
        'POST',
        '/keys',
        fc.record(
          {
            name: fc.string({ maxLength: 12 }),
            group: fc.constantFrom('default', 'nope'),
            balance: anyValue,
            allowedIps: anyValue,
            limits: fc.record({ dailySpend: anyValue, requestsPerMinute: anyValue }, { requiredKeys: [] }),
          },
          { requiredKeys: [] },
        ),
      ],
      [
        'PATCH',
        `/keys/KEY`,
        fc.record(
          { balance: anyValue, allowedIps: fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 20 })), { maxLength: 3 }), quota: anyValue },
          { requiredKeys: [] },
        ),
      ],
      [
        'POST',
        '/channels',
        fc.record(
          {
            name: fc.string({ maxLength: 12 }),
            provider: fc.constantFrom('openai', 'x'),
            baseUrl: fc.oneof(fc.webUrl(), fc.string()),
            apiKey: anyValue,
            models: anyValue,
            groups: anyValue,
            priority: anyValue,
            weight: anyValue,
          },
          { requiredKeys: [] },
        ),
      ],
    ];
    const { id: patchable } = await h.addKey();
    for (const [method, path, body] of routes) {
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          const response = await fetch(`${h.url}/api/admin${path.replace('KEY', patchable)}`, {
            method,
            headers: { authorization: 'Bearer sya-test-admin-token-0123456789', 'content-type': 'application/json' },
            body: JSON.stringify(value),
          });
          const text = await response.text();
          assert.ok(response.status < 500, `${method} ${path} ${JSON.stringify(value)} → ${response.status} ${text}`);
        }),
        { numRuns: 40 },
      );
    }
    // Whatever was accepted, prices and multipliers stay inside the bounds.
    for (const group of (await h.admin('GET', '/groups')).data) assert.ok(group.priceMultiplier <= 1_000 && group.priceMultiplier >= 0);
    for (const price of (await h.admin('GET', '/prices')).data) assert.ok(price.input <= 100_000 && price.output <= 100_000);
  });

  test('random upstream replies: no internal error, no secret, an exact ledger, no batch stuck', async () => {
    // The admin property may have changed the default group's multiplier: pin it.
    await h.admin('PATCH', '/groups/default', { priceMultiplier: 1 });
    // A random seed each run (printed on failure; replay with PROPERTY_SEED=<seed>).
    const seed = process.env.PROPERTY_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.PROPERTY_SEED);
    try {
      await fc.assert(
        fc.asyncProperty(upstreamReply, fc.boolean(), async (reply, junkClient) => {
          if (!junkClient) next.push(reply);
          sent += 1;
          const body = junkClient
            ? { model: 'junk-model', messages: 'not a list', n: -5, max_tokens: 1e308 }
            : { model: 'prop-model', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
          const answer = await h.chat(key, body);
          next.length = 0;
          if (junkClient) assert.ok(answer.status >= 400 && answer.status < 500, `bad client input → ${answer.status} ${answer.text.slice(0, 300)}`);
          assert.notEqual(answer.json?.error?.code, 'internal_error', answer.text.slice(0, 300));
          assert.ok(!answer.text.includes(FRAGMENT), `secret in answer: ${answer.text.slice(0, 300)}`);
          for (const [name, value] of Object.entries(answer.json?.error ?? {})) assert.ok(!String(value).includes(FRAGMENT), name);
        }),
        { numRuns: 60, seed },
      );
    } catch (error) {
      throw new Error(
        `property failed with seed ${seed} (replay: PROPERTY_SEED=${seed} node scripts/run-tests.mjs test/security/invariants.property.test.ts)`,
        { cause: error },
      );
    }

    // Every request reached the usage log, and the balance is exactly the top-up minus the logged charges.
    const rows = async () => (await h.admin('GET', `/logs?key=${keyId}&limit=1000`)).data as Array<{ costMicros: number }>;
    assert.ok(await eventually(async () => (await rows()).length === sent), `usage rows ${(await rows()).length} of ${sent}`);
    const charged = (await rows()).reduce((sum, row) => sum + row.costMicros, 0);
    assert.ok((await rows()).every((row) => Number.isSafeInteger(row.costMicros) && row.costMicros >= 0));
    assert.ok(
      await eventually(async () => Math.round((await h.balanceOf(keyId)) * 1e6) === TOP_UP_USD * 1e6 - charged),
      `balance ${await h.balanceOf(keyId)} vs ${TOP_UP_USD} − ${charged / 1e6}`,
    );
    assert.ok((await h.balanceOf(keyId)) <= TOP_UP_USD);

    const everything = JSON.stringify(await rows()) + JSON.stringify(await h.admin('GET', '/channels')) + h.logLines();
    assert.ok(!everything.includes(FRAGMENT), 'a secret reached the usage log, channel health or the process log');
  });
});
