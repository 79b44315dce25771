import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { WithdrawalDecision } from '../../domain/withdrawal.ts';
import { decideWithdrawal } from '../../payments/referral-withdrawals.ts';
import type { AppDeps } from '../app-deps.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { paymentDepsOf } from '../payment-deps-of.ts';
import { withdrawalView } from '../withdrawal-view.ts';
import { withdrawalDecisionSchema, withdrawalQuerySchema } from './admin-payment-schemas.ts';
import { recordAdminChange } from './record-admin-change.ts';

const DECISIONS: readonly WithdrawalDecision[] = ['approve', 'reject', 'mark-paid'];

/**
 * The operator's payouts of referral rebates (issue 28): the requests, with filters, and the
 * three decisions (approve, reject: the held amount goes back to the wallet, mark paid). Each
 * decision is one guarded write (see decideWithdrawal) and a line in the admin audit log.
 */
export function registerAdminWithdrawalRoutes(app: FastifyInstance, deps: AppDeps): void {
  const payments = paymentDepsOf(deps);
  app.register(
    async (admin) => {
      admin.get('/referral-withdrawals', async (request) => {
        const query = parseAdminInput(withdrawalQuerySchema, request.query);
        const user = query.user === undefined ? undefined : await deps.store.users.find(query.user);
        if (query.user !== undefined && !user) throw invalidRequest(`user: no user "${query.user}" exists.`, 'user');
        const list = await deps.store.withdrawals.list({
          ...(query.status ? { status: query.status } : {}),
          ...(user ? { userId: user.id } : {}),
          ...(query.limit ? { limit: query.limit } : {}),
        });
        return { data: list.map(withdrawalView) };
      });
      for (const decision of DECISIONS) {
        admin.post(`/referral-withdrawals/:id/${decision}`, async (request: FastifyRequest) => {
          const input = parseAdminInput(withdrawalDecisionSchema, request.body ?? {});
          const id = (request.params as Record<string, string>).id ?? '';
          const before = await deps.store.withdrawals.get(id);
          const actor = request.adminActor?.name ?? 'an operator';
          const decided = await decideWithdrawal(payments, id, decision, { actor, reason: input.reason, payoutRef: input.payoutRef });
          await recordAdminChange(deps, request, {
            action: `referral-withdrawal.${decision}`,
            targetKind: 'user',
            targetId: decided.userId,
            targetName: decided.id,
            before: before ? withdrawalView(before) : null,
            after: withdrawalView(decided),
          });
          return withdrawalView(decided);
        });
      }
    },
    { prefix: '/api/admin' },
  );
}
