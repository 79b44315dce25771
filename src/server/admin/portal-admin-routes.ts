import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import type { WalletAdjustment } from '../../store/repositories/wallet-adjustment-repository.ts';
import type { WalletAdjustmentView } from '../../domain/account-portal-api.ts';
import type { AppDeps } from '../app-deps.ts';
import { accountDefaultGroup, setAccountDefaultGroup } from '../../accounts/account-settings.ts';
import { userView } from '../../accounts/account-views.ts';
import { microsToUsd, usdToMicros } from '../../domain/money.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { groupName, usdChange } from '../../schemas/field-rules.ts';
import { readStatusPageSettings, saveStatusPageSettings } from '../../notify/status-page-settings.ts';
import { statusPageSchema } from '../notification-schemas.ts';
import { signUpSettingsSchema } from '../identity-schemas.ts';
import { patchSignUpSettings, readSignUpSettings, signUpSettingsView } from '../../identity/sign-up-settings.ts';
import { exchangeRatesSchema, readPaymentSettings, referralRulesSchema, topUpRulesSchema, writePaymentSettings } from '../../payments/payment-settings.ts';

export const topUpSchema = z.strictObject({
  amount: usdChange.refine((value) => value !== 0, 'must not be 0'),
  note: z.string().trim().min(1, 'is required: say why, it is kept in the audit trail').max(500),
});
export const accountSettingsSchema = z.strictObject({
  defaultGroup: groupName.nullable().optional(),
  statusPage: statusPageSchema.optional(),
  signUp: signUpSettingsSchema.optional(),
  // Money in (issue 28): each replaces the stored value as a whole.
  topUp: topUpRulesSchema.optional(),
  referral: referralRulesSchema.optional(),
  exchangeRates: exchangeRatesSchema.optional(),
});

/**
 * The operator's side of the account portal (issue 16), beside issue 15's accounts API:
 * - `POST /api/admin/users/:id/top-ups {amount, note}`: a signed wallet change applied
 *   atomically, recorded with its note in the wallet's audit trail; `GET` lists the trail.
 * - `GET/PATCH /api/admin/account-settings {defaultGroup, statusPage, signUp}`: the group accounts may create keys
 *   in without a subscription (null: none); the public status page (issue 30: `{enabled, showChannelNames?, title?}`);
 *   self sign-up (issue 29).
 */
export function registerPortalAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  app.register(
    async (admin) => {
      admin.post('/users/:id/top-ups', async (request, reply) => {
        const input = parseAdminInput(topUpSchema, request.body);
        const existing = await findUser((request.params as Record<string, string>).id ?? '');
        const amountMicros = usdToMicros(input.amount);
        const user = await store.users.addBalance(existing.id, amountMicros);
        if (!user) throw notFound(existing.id);
        await deps.snapshot.reload();
        const balanceMicros = await deps.access.wallets.available(user);
        const adjustment = await store.walletAdjustments.record({ userId: user.id, amountMicros, note: input.note, balanceAfterMicros: balanceMicros });
        deps.logger.info({ userId: user.id, amountMicros, note: input.note }, 'wallet adjusted by the operator');
        return reply.code(201).send({ user: userView(user, balanceMicros), adjustment: adjustmentView(adjustment) });
      });

      admin.get('/users/:id/top-ups', async (request) => {
        const user = await findUser((request.params as Record<string, string>).id ?? '');
        return { data: (await store.walletAdjustments.listForUser(user.id)).map(adjustmentView) };
      });

      const settingsView = async () => ({
        defaultGroup: await accountDefaultGroup(store),
        statusPage: await readStatusPageSettings(store.settings),
        signUp: signUpSettingsView(await readSignUpSettings(store)),
        ...(await readPaymentSettings(store)),
      });
      admin.get('/account-settings', settingsView);
      admin.patch('/account-settings', async (request) => {
        const input = parseAdminInput(accountSettingsSchema, request.body);
        if (input.defaultGroup !== undefined) {
          if (input.defaultGroup !== null && !(await store.groups.list()).some((group) => group.name === input.defaultGroup)) {
            throw invalidRequest(`defaultGroup: group "${input.defaultGroup}" does not exist.`, 'defaultGroup');
          }
          await setAccountDefaultGroup(store, input.defaultGroup);
        }
        if (input.statusPage !== undefined) await saveStatusPageSettings(store.settings, input.statusPage);
        // Self sign-up: only the fields sent change; the captcha secret is sealed, never shown back.
        if (input.signUp !== undefined) await patchSignUpSettings(store, input.signUp);
        await writePaymentSettings(store, input);
        return settingsView();
      });
    },
    { prefix: '/api/admin' },
  );

  async function findUser(idOrName: string) {
    const user = await store.users.find(idOrName);
    if (!user) throw notFound(idOrName);
    return user;
  }
}

function notFound(id: string): GatewayError {
  return new GatewayError('not_found', `No user "${id}" exists.`);
}

function adjustmentView(entry: WalletAdjustment): WalletAdjustmentView {
  return {
    id: entry.id,
    userId: entry.userId,
    amount: microsToUsd(entry.amountMicros),
    note: entry.note,
    balanceAfter: entry.balanceAfterMicros === null ? null : microsToUsd(entry.balanceAfterMicros),
    time: new Date(entry.createdAt).toISOString(),
  };
}
