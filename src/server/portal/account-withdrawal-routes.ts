import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { User } from '../../domain/user.ts';
import { requestWithdrawal } from '../../payments/referral-withdrawals.ts';
import { positiveUsd } from '../../schemas/field-rules.ts';
import type { AppDeps } from '../app-deps.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { paymentDepsOf } from '../payment-deps-of.ts';
import { withdrawalView } from '../withdrawal-view.ts';

const withdrawalRequestSchema = z.strictObject({
  amountUsd: positiveUsd,
  /** Where to be paid: the account's own words (bank account, Alipay id), shown to the operator. */
  payoutTo: z.string().trim().min(3).max(300),
});

/**
 * The inviter's withdrawals of credited rebates, inside the portal's `/api/account` scope (its
 * session and CSRF checks apply): ask for one (the amount is held at once), and follow them.
 */
export function registerAccountWithdrawalRoutes(account: FastifyInstance, deps: AppDeps, userOf: (request: FastifyRequest) => User): void {
  const payments = paymentDepsOf(deps);

  account.get('/referral/withdrawals', async (request) => ({
    data: (await deps.store.withdrawals.list({ userId: userOf(request).id })).map(withdrawalView),
  }));

  account.post('/referral/withdrawals', async (request, reply) => {
    const input = parseAdminInput(withdrawalRequestSchema, request.body);
    const withdrawal = await requestWithdrawal(payments, userOf(request), input.amountUsd, input.payoutTo);
    deps.logger.info({ withdrawalId: withdrawal.id, userId: withdrawal.userId, amountMicros: withdrawal.amountMicros }, 'rebate withdrawal requested');
    return reply.code(201).send(withdrawalView(withdrawal));
  });
}
