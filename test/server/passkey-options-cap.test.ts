import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PASSKEY_OPTIONS_PER_MINUTE } from '../../src/server/passkey-options-cap.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/**
 * Issue 29: every public passkey sign-in start stores a challenge in the kv for five minutes, so
 * the portal's and the console's options calls are capped per address and answer 429 in the
 * API's error shape with Retry-After once the minute's budget is spent.
 */
describe('the per-address cap on passkey sign-in options', { timeout: 60_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness({ publicUrl: 'https://gateway.test' });
  });
  after(() => harness.close());

  const start = (path: string) => fetch(`${harness.url}${path}`, { method: 'POST' });

  for (const path of ['/api/account/passkey-session/options', '/api/admin/session/passkey/options']) {
    test(`${path}: ${PASSKEY_OPTIONS_PER_MINUTE} a minute, then 429 with Retry-After`, async () => {
      // The minute may roll over mid-burst on a slow machine: then the budget restarts, which
      // the test allows by sending until the first refusal within two budgets.
      let admitted = 0;
      let refused: Response | undefined;
      for (let sent = 0; sent < PASSKEY_OPTIONS_PER_MINUTE * 2 && !refused; sent += 1) {
        const response = await start(path);
        if (response.status === 200) {
          admitted += 1;
          assert.ok(typeof ((await response.json()) as { challenge?: unknown }).challenge === 'string');
        } else refused = response;
      }
      assert.ok(refused, 'a burst past the budget is refused');
      assert.ok(admitted >= PASSKEY_OPTIONS_PER_MINUTE, `at least a full budget passes first (${admitted})`);
      assert.equal(refused.status, 429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${refused.headers.get('retry-after')}`);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'rate_limited');
      assert.match(body.error.message, /passkey/);
    });
  }
});
