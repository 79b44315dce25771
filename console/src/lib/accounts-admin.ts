import { call } from './api.ts';
import { type AdminPlanView as Plan, type AdminRedemptionCodeView as RedemptionCodeRecord, type AdminSubscriptionView as Subscription, type AdminUserView as User } from '../../../src/domain/account-admin-api.ts';
import { type WalletAdjustmentView as WalletAdjustment } from '../../../src/domain/account-portal-api.ts';
import type { ListAnswer } from './types.ts';

/** The operator's calls to the accounts part of the admin API (issue 15's contract). */
export function adminApi(token: string) {
  const get = <T>(path: string) => call<T>(`/api/admin${path}`, { bearer: token });
  const send = <T>(method: string, path: string, body?: unknown) =>
    call<T>(`/api/admin${path}`, { method, bearer: token, ...(body === undefined ? {} : { body }) });
  const id = encodeURIComponent;
  return {
    users: async () => (await get<ListAnswer<User>>('/users')).data,
    createUser: (body: Record<string, unknown>) => send<User>('POST', '/users', body),
    updateUser: (userId: string, body: Record<string, unknown>) => send<User>('PATCH', `/users/${id(userId)}`, body),
    topUp: (userId: string, amount: number, note: string) => send<{ user: User; adjustment: WalletAdjustment }>('POST', `/users/${id(userId)}/top-ups`, { amount, note }),
    topUps: async (userId: string) => (await get<ListAnswer<WalletAdjustment>>(`/users/${id(userId)}/top-ups`)).data,
    plans: async () => (await get<ListAnswer<Plan>>('/plans')).data,
    createPlan: (body: Record<string, unknown>) => send<Plan>('POST', '/plans', body),
    updatePlan: (planId: string, body: Record<string, unknown>) => send<Plan>('PATCH', `/plans/${id(planId)}`, body),
    deletePlan: (planId: string) => send<void>('DELETE', `/plans/${id(planId)}`),
    subscriptions: async (query = '') => (await get<ListAnswer<Subscription>>(`/subscriptions${query}`)).data,
    grant: (body: Record<string, unknown>) => send<Subscription>('POST', '/subscriptions', body),
    updateSubscription: (subscriptionId: string, body: Record<string, unknown>) => send<Subscription>('PATCH', `/subscriptions/${id(subscriptionId)}`, body),
    codes: async () => (await get<ListAnswer<RedemptionCodeRecord>>('/redemption-codes')).data,
    generateCodes: (body: Record<string, unknown>) => send<{ codes: string[] }>('POST', '/redemption-codes', body),
    accountSettings: () => get<{ defaultGroup: string | null }>('/account-settings'),
    setAccountSettings: (body: { defaultGroup: string | null }) => send<{ defaultGroup: string | null }>('PATCH', '/account-settings', body),
  };
}

export type AdminApi = ReturnType<typeof adminApi>;
