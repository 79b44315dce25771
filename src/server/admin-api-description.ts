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

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One admin API operation: its route as Fastify spells it, and the schemas its handler parses. */
export interface AdminOperation {
  method: HttpMethod;
  /** `/api/admin/keys/:id`, exactly as registered. */
  route: string;
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
  { method: 'GET', route: '/api/admin/groups', tag: 'groups', summary: 'List groups' },
  { method: 'POST', route: '/api/admin/groups', tag: 'groups', summary: 'Create a group', body: groupCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/groups/:name', tag: 'groups', summary: 'Change or rename a group (`name`: its keys, channels and plans follow)', body: groupPatchSchema },
  { method: 'DELETE', route: '/api/admin/groups/:name', tag: 'groups', summary: 'Delete a group no key or channel uses', status: 204 },

  { method: 'GET', route: '/api/admin/channels', tag: 'channels', summary: 'List channels with their live health' },
  { method: 'GET', route: '/api/admin/channels/:id', tag: 'channels', summary: 'One channel (by id or name)' },
  { method: 'POST', route: '/api/admin/channels', tag: 'channels', summary: 'Create a channel', body: channelCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/channels/:id', tag: 'channels', summary: 'Change a channel', body: channelPatchSchema },
  { method: 'DELETE', route: '/api/admin/channels/:id', tag: 'channels', summary: 'Delete a channel', status: 204 },
  { method: 'POST', route: '/api/admin/channels/:id/test', tag: 'channels', summary: 'Send one small request through the channel', body: channelTestSchema },

  { method: 'GET', route: '/api/admin/keys', tag: 'keys', summary: 'List keys (secrets masked)' },
  { method: 'GET', route: '/api/admin/keys/:id', tag: 'keys', summary: 'One key (by id or name; a name several accounts use needs the id)' },
  { method: 'GET', route: '/api/admin/keys/:id/diagnose', tag: 'keys', summary: 'The model check of one key (?model=&client=): the same six checks as /api/diagnose' },
  { method: 'POST', route: '/api/admin/keys', tag: 'keys', summary: 'Create a key; the secret is in this answer only', body: keyCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/keys/:id', tag: 'keys', summary: 'Change a key', body: keyPatchSchema },
  { method: 'DELETE', route: '/api/admin/keys/:id', tag: 'keys', summary: 'Delete a key', status: 204 },

  { method: 'GET', route: '/api/admin/prices', tag: 'prices', summary: 'List model prices' },
  { method: 'POST', route: '/api/admin/prices', tag: 'prices', summary: 'Set a model price (USD per million tokens)', body: priceSchema, status: 201 },
  { method: 'DELETE', route: '/api/admin/prices/:model', tag: 'prices', summary: 'Remove a model price', status: 204 },

  { method: 'GET', route: '/api/admin/logs', tag: 'observability', summary: 'Usage log, newest first, paged by cursor', query: logQuerySchema },
  { method: 'GET', route: '/api/admin/audit', tag: 'observability', summary: 'Audit log of admin changes, newest first', query: auditQuerySchema },
  { method: 'GET', route: '/api/admin/usage', tag: 'observability', summary: 'Totals per UTC day by key, model or payer', query: usageQuerySchema },
  { method: 'GET', route: '/api/admin/insight/summary', tag: 'observability', summary: 'Totals, a time series and the top models and keys', query: summaryQuerySchema },

  { method: 'GET', route: '/api/admin/users', tag: 'accounts', summary: 'List users' },
  { method: 'GET', route: '/api/admin/users/:id', tag: 'accounts', summary: 'One user with wallet and subscriptions' },
  { method: 'POST', route: '/api/admin/users', tag: 'accounts', summary: 'Create a user', body: userCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/users/:id', tag: 'accounts', summary: 'Change a user, set or top up the wallet', body: userPatchSchema },
  { method: 'DELETE', route: '/api/admin/users/:id', tag: 'accounts', summary: 'Delete a user', status: 204 },
  { method: 'GET', route: '/api/admin/users/:id/top-ups', tag: 'accounts', summary: "A user's wallet top-ups, with notes" },
  { method: 'POST', route: '/api/admin/users/:id/top-ups', tag: 'accounts', summary: 'Add to (or take from) a wallet, with a note for the audit trail', body: topUpSchema, status: 201 },
  { method: 'GET', route: '/api/admin/account-settings', tag: 'accounts', summary: 'Account settings (the default group for account keys)' },
  { method: 'PATCH', route: '/api/admin/account-settings', tag: 'accounts', summary: 'Change account settings', body: accountSettingsSchema },

  { method: 'GET', route: '/api/admin/plans', tag: 'subscriptions', summary: 'List plans' },
  { method: 'GET', route: '/api/admin/plans/:id', tag: 'subscriptions', summary: 'One plan' },
  { method: 'POST', route: '/api/admin/plans', tag: 'subscriptions', summary: 'Create a plan', body: planCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/plans/:id', tag: 'subscriptions', summary: 'Change a plan', body: planPatchSchema },
  { method: 'DELETE', route: '/api/admin/plans/:id', tag: 'subscriptions', summary: 'Delete a plan no subscription uses', status: 204 },
  { method: 'GET', route: '/api/admin/subscriptions', tag: 'subscriptions', summary: 'List subscriptions', query: subscriptionQuerySchema },
  { method: 'GET', route: '/api/admin/subscriptions/:id', tag: 'subscriptions', summary: 'One subscription with what it has used' },
  { method: 'POST', route: '/api/admin/subscriptions', tag: 'subscriptions', summary: 'Grant a plan to a user', body: subscriptionCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/subscriptions/:id', tag: 'subscriptions', summary: 'Suspend, resume or extend a subscription', body: subscriptionPatchSchema },
  { method: 'GET', route: '/api/admin/redemption-codes', tag: 'subscriptions', summary: 'List redemption codes (hashed; codes are shown once)' },
  { method: 'POST', route: '/api/admin/redemption-codes', tag: 'subscriptions', summary: 'Create a batch of codes; they are in this answer only', body: redemptionCodeCreateSchema, status: 201 },
];
