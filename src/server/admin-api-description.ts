import type { AdminPermission } from '../access/admin-permissions.ts';
import type { z } from 'zod';
import {
  auditQuerySchema,
  channelCreateSchema,
  channelPatchSchema,
  channelTestSchema,
  groupCreateSchema,
  groupPatchSchema,
  keyCreateSchema,
  keyPatchSchema,
  logExportQuerySchema,
  logQuerySchema,
  planCreateSchema,
  planPatchSchema,
  priceSchema,
  redemptionCodeCreateSchema,
  subscriptionCreateSchema,
  subscriptionPatchSchema,
  subscriptionQuerySchema,
  userCreateSchema,
  userPatchSchema,
} from './routes/admin-schemas.ts';
import { summaryQuerySchema } from './routes/admin-insight-routes.ts';
import { accountSettingsSchema, topUpSchema } from './routes/portal-admin-routes.ts';
import { usageQuerySchema } from './routes/usage-stats-routes.ts';
import { adminCreateSchema, adminPatchSchema, adminSignInSchema, adminTokenCreateSchema } from './routes/admin-people-schemas.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One admin API operation: its route as Fastify spells it, and the schemas its handler parses. */
export interface AdminOperation {
  method: HttpMethod;
  /** `/api/admin/keys/:id`, exactly as registered. */
  route: string;
  /** What the caller's role must hold (see access/admin-permissions.ts): the one permission table. */
  permission: AdminPermission;
  /** A body that changes only these fields needs only this permission (support may suspend and resume, not edit). */
  narrowTo?: { onlyFields: readonly string[]; permission: AdminPermission };
  tag: string;
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  /** The success status; 200 unless said. */
  status?: 200 | 201 | 204;
}

/**
 * Every operation of `/api/admin`, with the same zod schemas the handlers validate with, so the
 * OpenAPI description (`build-admin-openapi.ts`) cannot promise a field the API refuses.
 * `create-app.ts` refuses to start when a registered admin route is missing here or an entry
 * here has no route, so the list stays complete.
 */
export const ADMIN_OPERATIONS: readonly AdminOperation[] = [
  { method: 'GET', route: '/api/admin/groups', permission: 'groups.read', tag: 'groups', summary: 'List groups' },
  { method: 'POST', route: '/api/admin/groups', permission: 'groups.write', tag: 'groups', summary: 'Create a group', body: groupCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/groups/:name', permission: 'groups.write', tag: 'groups', summary: 'Change or rename a group (`name`: its keys, channels and plans follow)', body: groupPatchSchema },
  { method: 'DELETE', route: '/api/admin/groups/:name', permission: 'groups.write', tag: 'groups', summary: 'Delete a group no key or channel uses', status: 204 },

  { method: 'GET', route: '/api/admin/channels', permission: 'channels.read', tag: 'channels', summary: 'List channels with their live health' },
  { method: 'GET', route: '/api/admin/channels/:id', permission: 'channels.read', tag: 'channels', summary: 'One channel (by id or name)' },
  { method: 'POST', route: '/api/admin/channels', permission: 'channels.write', tag: 'channels', summary: 'Create a channel', body: channelCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/channels/:id', permission: 'channels.write', tag: 'channels', summary: 'Change a channel', body: channelPatchSchema },
  { method: 'DELETE', route: '/api/admin/channels/:id', permission: 'channels.write', tag: 'channels', summary: 'Delete a channel', status: 204 },
  { method: 'POST', route: '/api/admin/channels/:id/test', permission: 'channels.write', tag: 'channels', summary: 'Send one small request through the channel', body: channelTestSchema },

  { method: 'GET', route: '/api/admin/keys', permission: 'keys.read', tag: 'keys', summary: 'List keys (secrets masked)' },
  { method: 'GET', route: '/api/admin/keys/:id', permission: 'keys.read', tag: 'keys', summary: 'One key (by id or name; a name several accounts use needs the id)' },
  { method: 'GET', route: '/api/admin/keys/:id/diagnose', permission: 'keys.read', tag: 'keys', summary: 'The model check of one key (?model=&client=): the same six checks as /api/diagnose' },
  { method: 'POST', route: '/api/admin/keys', permission: 'keys.write', tag: 'keys', summary: 'Create a key; the secret is in this answer only', body: keyCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/keys/:id', permission: 'keys.write', narrowTo: { onlyFields: ['enabled'], permission: 'keys.suspend' }, tag: 'keys', summary: 'Change a key', body: keyPatchSchema },
  { method: 'DELETE', route: '/api/admin/keys/:id', permission: 'keys.write', tag: 'keys', summary: 'Delete a key', status: 204 },

  { method: 'GET', route: '/api/admin/prices', permission: 'prices.read', tag: 'prices', summary: 'List model prices' },
  { method: 'POST', route: '/api/admin/prices', permission: 'prices.write', tag: 'prices', summary: 'Set a model price (USD per million tokens)', body: priceSchema, status: 201 },
  { method: 'DELETE', route: '/api/admin/prices/:model', permission: 'prices.write', tag: 'prices', summary: 'Remove a model price', status: 204 },

  { method: 'GET', route: '/api/admin/logs', permission: 'logs.read', tag: 'observability', summary: 'Usage log, newest first, paged by cursor', query: logQuerySchema },
  { method: 'GET', route: '/api/admin/logs/export', permission: 'logs.read', tag: 'observability', summary: 'The usage log as CSV, newest first, streamed (same filters, no paging)', query: logExportQuerySchema },
  { method: 'GET', route: '/api/admin/audit', permission: 'audit.read', tag: 'observability', summary: 'Audit log of admin changes, newest first', query: auditQuerySchema },
  { method: 'GET', route: '/api/admin/usage', permission: 'usage.read', tag: 'observability', summary: 'Totals per UTC day by key, model or payer', query: usageQuerySchema },
  { method: 'GET', route: '/api/admin/insight/summary', permission: 'usage.read', tag: 'observability', summary: 'Totals, a time series and the top models and keys', query: summaryQuerySchema },

  { method: 'GET', route: '/api/admin/users', permission: 'accounts.read', tag: 'accounts', summary: 'List users' },
  { method: 'GET', route: '/api/admin/users/:id', permission: 'accounts.read', tag: 'accounts', summary: 'One user with wallet and subscriptions' },
  { method: 'POST', route: '/api/admin/users', permission: 'accounts.write', tag: 'accounts', summary: 'Create a user', body: userCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/users/:id', permission: 'accounts.write', narrowTo: { onlyFields: ['enabled'], permission: 'accounts.suspend' }, tag: 'accounts', summary: 'Change a user, set or top up the wallet', body: userPatchSchema },
  { method: 'DELETE', route: '/api/admin/users/:id', permission: 'accounts.write', tag: 'accounts', summary: 'Delete a user', status: 204 },
  { method: 'GET', route: '/api/admin/users/:id/top-ups', permission: 'accounts.read', tag: 'accounts', summary: "A user's wallet top-ups, with notes" },
  { method: 'POST', route: '/api/admin/users/:id/top-ups', permission: 'wallets.write', tag: 'accounts', summary: 'Add to (or take from) a wallet, with a note for the audit trail', body: topUpSchema, status: 201 },
  { method: 'GET', route: '/api/admin/account-settings', permission: 'accounts.read', tag: 'accounts', summary: 'Account settings (the default group for account keys)' },
  { method: 'PATCH', route: '/api/admin/account-settings', permission: 'account-settings.write', tag: 'accounts', summary: 'Change account settings', body: accountSettingsSchema },

  { method: 'GET', route: '/api/admin/plans', permission: 'plans.read', tag: 'subscriptions', summary: 'List plans' },
  { method: 'GET', route: '/api/admin/plans/:id', permission: 'plans.read', tag: 'subscriptions', summary: 'One plan' },
  { method: 'POST', route: '/api/admin/plans', permission: 'plans.write', tag: 'subscriptions', summary: 'Create a plan', body: planCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/plans/:id', permission: 'plans.write', tag: 'subscriptions', summary: 'Change a plan', body: planPatchSchema },
  { method: 'DELETE', route: '/api/admin/plans/:id', permission: 'plans.write', tag: 'subscriptions', summary: 'Delete a plan no subscription uses', status: 204 },
  { method: 'GET', route: '/api/admin/subscriptions', permission: 'subscriptions.read', tag: 'subscriptions', summary: 'List subscriptions', query: subscriptionQuerySchema },
  { method: 'GET', route: '/api/admin/subscriptions/:id', permission: 'subscriptions.read', tag: 'subscriptions', summary: 'One subscription with what it has used' },
  { method: 'POST', route: '/api/admin/subscriptions', permission: 'subscriptions.write', tag: 'subscriptions', summary: 'Grant a plan to a user', body: subscriptionCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/subscriptions/:id', permission: 'subscriptions.write', narrowTo: { onlyFields: ['status'], permission: 'subscriptions.suspend' }, tag: 'subscriptions', summary: 'Suspend, resume or extend a subscription', body: subscriptionPatchSchema },
  { method: 'GET', route: '/api/admin/redemption-codes', permission: 'codes.read', tag: 'subscriptions', summary: 'List redemption codes (hashed; codes are shown once)' },
  { method: 'POST', route: '/api/admin/redemption-codes', permission: 'codes.write', tag: 'subscriptions', summary: 'Create a batch of codes; they are in this answer only', body: redemptionCodeCreateSchema, status: 201 },

  { method: 'POST', route: '/api/admin/session', permission: 'public', tag: 'admins', summary: 'Sign in to the console (login: name or e-mail); sets the session cookie, answers the CSRF token', body: adminSignInSchema },
  { method: 'DELETE', route: '/api/admin/session', permission: 'self', tag: 'admins', summary: 'Sign out of the console', status: 204 },
  { method: 'GET', route: '/api/admin/me', permission: 'self', tag: 'admins', summary: 'Who is calling: name, role, and the session’s CSRF token' },
  { method: 'GET', route: '/api/admin/admins', permission: 'admins.read', tag: 'admins', summary: 'List admins (never their passwords)' },
  { method: 'GET', route: '/api/admin/admins/:id', permission: 'admins.read', tag: 'admins', summary: 'One admin (by id, name or e-mail)' },
  { method: 'POST', route: '/api/admin/admins', permission: 'admins.write', tag: 'admins', summary: 'Create an admin with a role', body: adminCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/admins/:id', permission: 'admins.write', tag: 'admins', summary: 'Change an admin (a new password, role or disabling ends their sessions)', body: adminPatchSchema },
  { method: 'DELETE', route: '/api/admin/admins/:id', permission: 'admins.write', tag: 'admins', summary: 'Remove an admin (not the last owner); their tokens stop working', status: 204 },
  { method: 'GET', route: '/api/admin/tokens', permission: 'tokens.read', tag: 'admins', summary: 'List minted admin tokens (never the tokens)' },
  { method: 'POST', route: '/api/admin/tokens', permission: 'tokens.write', tag: 'admins', summary: 'Mint a scoped, expiring admin token; it is in this answer only', body: adminTokenCreateSchema, status: 201 },
  { method: 'DELETE', route: '/api/admin/tokens/:id', permission: 'tokens.write', tag: 'admins', summary: 'Revoke an admin token', status: 204 },
];
