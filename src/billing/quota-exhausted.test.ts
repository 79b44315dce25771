import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Plan } from '../domain/plan.ts';
import type { Subscription } from '../domain/subscription.ts';
import { quotaExhausted, type SubscriptionChoice } from './account-billing.ts';

const choice = {
  subscription: { id: 'sub_1', expiresAt: Date.UTC(2027, 0, 31) } as Subscription,
  plan: { name: 'starter' } as Plan,
} satisfies SubscriptionChoice;
const resetsAt = Date.UTC(2027, 0, 2);
const message = (usedMicros: number, amountMicros: number) =>
  quotaExhausted({ choice, shortfall: { window: 'daily', quotaMicros: 1_000_000, usedMicros, resetsAt } }, amountMicros).message;

test('a quota refusal says which of three situations it is, with a date a person reads (issue 24)', () => {
  // Nothing spent: the request alone is larger than the whole quota — not "nearly used up".
  assert.equal(
    message(0, 3_000_000),
    'Your subscription to plan "starter" cannot cover this request: it may cost up to $3.00, more than the whole daily quota of $1.00. Ask for fewer output tokens (max_tokens) or a larger plan. It resets on 2 Jan 2027, 00:00 UTC. Wait until then, or ask the operator for more.',
  );
  assert.match(
    message(600_000, 500_000),
    /has too little of its daily quota of \$1\.00 left for this request \(\$0\.60 used; this request may cost up to \$0\.50\)\. It resets on 2 Jan 2027, 00:00 UTC\./,
  );
  assert.match(message(1_000_000, 500_000), /has used up its daily quota of \$1\.00 \(\$1\.00 used\)\./);
  for (const text of [message(0, 3_000_000), message(600_000, 500_000), message(1_000_000, 1)]) {
    assert.doesNotMatch(text, /nearly|\d{4}-\d\d-\d\dT/);
  }
});
