import type { AdminRole } from '../domain/admin.ts';

/**
 * What an admin route may need (issue 29). Each admin operation names one of these in
 * `server/admin/admin-api-description.ts`; a role holds the set below. `public` is the console's
 * sign-in (no caller yet); `self` is anything every signed-in person may do to themselves
 * (who am I, sign out).
 */
export const ADMIN_PERMISSIONS = [
  'public',
  'self',
  'groups.read',
  'groups.write',
  'channels.read',
  'channels.write',
  'keys.read',
  'keys.write',
  'keys.suspend',
  'prices.read',
  'prices.write',
  'logs.read',
  'usage.read',
  'audit.read',
  'accounts.read',
  'accounts.write',
  'accounts.suspend',
  'wallets.write',
  'account-settings.write',
  'plans.read',
  'plans.write',
  'subscriptions.read',
  'subscriptions.write',
  'subscriptions.suspend',
  'codes.read',
  'codes.write',
  'admins.read',
  'admins.write',
  'tokens.read',
  'tokens.write',
  'notifications.read',
  'notifications.write',
  'announcements.write',
  'orders.read',
  'orders.write',
  'payment-providers.read',
  'payment-providers.write',
  'promotions.write',
] as const;
export type AdminPermission = (typeof ADMIN_PERMISSIONS)[number];

const READS = ADMIN_PERMISSIONS.filter((permission) => permission.endsWith('.read'));
const EVERYTHING = ADMIN_PERMISSIONS.filter((permission) => permission !== 'public');

/**
 * The role × permission table. owner: everything. admin: everything but changing the people
 * (it sees who the admins are, as the auditor does, so it may mint an auditor token). finance: money and the accounts that hold it, never
 * channels. support: read accounts, keys, logs; suspend and resume; no money; posts announcements. finance and support
 * see the alerts' setup and dead letters (notifications.read). auditor: every
 * read, no change (the views never carry a secret: keys, codes and channel credentials are
 * masked for every role, so nothing is hidden from the auditor that others see).
 */
export const ROLE_PERMISSIONS: Readonly<Record<AdminRole, ReadonlySet<AdminPermission>>> = {
  owner: new Set(EVERYTHING),
  admin: new Set(EVERYTHING.filter((permission) => permission !== 'admins.write')),
  finance: new Set<AdminPermission>([
    'self',
    'groups.read',
    'keys.read',
    'prices.read',
    'prices.write',
    'logs.read',
    'usage.read',
    'accounts.read',
    'accounts.write',
    'accounts.suspend',
    'wallets.write',
    'account-settings.write',
    'plans.read',
    'plans.write',
    'subscriptions.read',
    'subscriptions.write',
    'subscriptions.suspend',
    'codes.read',
    'codes.write',
    'notifications.read',
    'orders.read',
    'orders.write',
    'payment-providers.read',
    'promotions.write',
  ]),
  support: new Set<AdminPermission>([
    'self',
    'groups.read',
    'keys.read',
    'keys.suspend',
    'logs.read',
    'usage.read',
    'accounts.read',
    'accounts.suspend',
    'plans.read',
    'subscriptions.read',
    'subscriptions.suspend',
    'notifications.read',
    'announcements.write',
  ]),
  auditor: new Set<AdminPermission>(['self', ...READS]),
};

export function roleAllows(role: AdminRole, permission: AdminPermission): boolean {
  return permission === 'public' || ROLE_PERMISSIONS[role].has(permission);
}

/** Whether every permission of `granted` is also `holder`'s: no one mints a token that holds more than they do. */
export function roleCovers(holder: AdminRole, granted: AdminRole): boolean {
  return [...ROLE_PERMISSIONS[granted]].every((permission) => ROLE_PERMISSIONS[holder].has(permission));
}
