import type { AdminPermission } from '../../access/admin-permissions.ts';
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
} from './admin-schemas.ts';
import { summaryQuerySchema } from './admin-insight-routes.ts';
import { accountSettingsSchema, topUpSchema } from './portal-admin-routes.ts';
import { usageQuerySchema } from './usage-stats-routes.ts';
import { announcementSchema, deliveryQuerySchema, notificationChannelSchema, notificationRuleSchema } from '../notification-schemas.ts';
import { channelDiscountSchema, priceCatalogueSchema, priceHistoryQuerySchema } from './admin-price-version-routes.ts';
import { billImportSchema, driftThresholdSchema, marginQuerySchema, reconciliationQuerySchema } from './admin-ledger-routes.ts';
import { signInProviderSchema, smtpSettingsSchema } from '../identity-schemas.ts';
import { passkeyRegistrationSchema, passkeyRenameSchema, passkeySignInSchema } from '../passkey-http.ts';
import {
  adminCreateSchema,
  adminPatchSchema,
  adminSignInSchema,
  adminTokenCreateSchema,
  signInSettingsSchema,
  totpCodeSchema,
} from './admin-people-schemas.ts';
import {
  orderQuerySchema,
  orderRefundSchema,
  promotionCreateSchema,
  referralOverrideSchema,
  withdrawalDecisionSchema,
  withdrawalQuerySchema,
} from './admin-payment-schemas.ts';
import { PROVIDER_SETTINGS_SCHEMAS } from '../../payments/provider-settings.ts';

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
// biome-ignore format: a table read row by row, one route per line
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
  { method: 'GET', route: '/api/admin/prices/history', permission: 'prices.read', tag: 'prices', summary: 'Every price version (catalogue, sell, group, channel cost), oldest effective first', query: priceHistoryQuerySchema },
  { method: 'GET', route: '/api/admin/prices/unpriced', permission: 'prices.read', tag: 'prices', summary: 'Served models with no price (refused under STRICT_PRICING)' },
  { method: 'POST', route: '/api/admin/prices/catalogue', permission: 'prices.write', tag: 'prices', summary: 'Load a price catalogue file (source, date, list prices); a changed model gets a new version', body: priceCatalogueSchema, status: 201 },
  { method: 'POST', route: '/api/admin/prices/catalogue/default', permission: 'prices.write', tag: 'prices', summary: 'Load the catalogue the gateway ships (OpenAI, Anthropic, Gemini, Bedrock, Vertex)', status: 201 },
  { method: 'POST', route: '/api/admin/prices/groups/:group', permission: 'prices.write', tag: 'prices', summary: "A group's own sell price for a model (the group's multiplier still applies)", body: priceSchema, status: 201 },
  { method: 'POST', route: '/api/admin/prices/channels/:channel', permission: 'prices.write', tag: 'prices', summary: 'What the operator pays a channel for a model (cost price)', body: priceSchema, status: 201 },
  { method: 'GET', route: '/api/admin/ledger/requests/:id', permission: 'usage.read', tag: 'ledger', summary: "One request's ledger: a row per upstream attempt (the upstream's own usage object, cost, cost-price version, charged) and per payer (sell amount, sell-price version)" },
  { method: 'GET', route: '/api/admin/margin', permission: 'usage.read', tag: 'ledger', summary: 'Revenue, cost and margin per UTC day × model, channel, group or account (format=json|csv|jsonl)', query: marginQuerySchema },
  { method: 'POST', route: '/api/admin/reconciliation/channels/:channel/bills', permission: 'prices.write', tag: 'ledger', summary: "Import an upstream's bill for a channel (OpenAI costs/usage, Anthropic cost/usage report, CSV); answers the drift of its days", body: billImportSchema, status: 201 },
  { method: 'GET', route: '/api/admin/reconciliation', permission: 'usage.read', tag: 'ledger', summary: 'Drift per channel per UTC day between the ledger cost and the imported bills', query: reconciliationQuerySchema },
  { method: 'GET', route: '/api/admin/reconciliation/threshold', permission: 'usage.read', tag: 'ledger', summary: 'The drift threshold' },
  { method: 'POST', route: '/api/admin/reconciliation/threshold', permission: 'prices.write', tag: 'ledger', summary: 'Set the drift threshold (percent of the bill and a minimum in USD)', body: driftThresholdSchema },
  { method: 'POST', route: '/api/admin/prices/channels/:channel/discount', permission: 'prices.write', tag: 'prices', summary: "A channel's cost as a discount off the catalogue", body: channelDiscountSchema, status: 201 },

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
  { method: 'GET', route: '/api/admin/account-settings', permission: 'accounts.read', tag: 'accounts', summary: 'Account settings (the default group for account keys, the status page)' },
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
  { method: 'GET', route: '/api/admin/me', permission: 'self', tag: 'admins', summary: 'Who is calling: name, role, the session’s CSRF token, and whether their sign-in asks for a TOTP code (twoFactor)' },
  { method: 'GET', route: '/api/admin/admins', permission: 'admins.read', tag: 'admins', summary: 'List admins (never their passwords)' },
  { method: 'GET', route: '/api/admin/admins/:id', permission: 'admins.read', tag: 'admins', summary: 'One admin (by id, name or e-mail)' },
  { method: 'POST', route: '/api/admin/admins', permission: 'admins.write', tag: 'admins', summary: 'Create an admin with a role', body: adminCreateSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/admins/:id', permission: 'admins.write', tag: 'admins', summary: 'Change an admin (a new password, role or disabling ends their sessions)', body: adminPatchSchema },
  { method: 'DELETE', route: '/api/admin/admins/:id', permission: 'admins.write', tag: 'admins', summary: 'Remove an admin (not the last owner); their tokens stop working', status: 204 },
  { method: 'GET', route: '/api/admin/tokens', permission: 'tokens.read', tag: 'admins', summary: 'List minted admin tokens (never the tokens)' },
  { method: 'POST', route: '/api/admin/tokens', permission: 'tokens.write', tag: 'admins', summary: 'Mint a scoped, expiring admin token; it is in this answer only', body: adminTokenCreateSchema, status: 201 },
  { method: 'DELETE', route: '/api/admin/tokens/:id', permission: 'tokens.write', tag: 'admins', summary: 'Revoke an admin token', status: 204 },

  { method: 'GET', route: '/api/admin/notification-events', permission: 'notifications.read', tag: 'notifications', summary: 'The events rules may choose, with their default thresholds (money in USD)' },
  { method: 'GET', route: '/api/admin/notification-channels', permission: 'notifications.read', tag: 'notifications', summary: 'List alert channels (addresses to their host, secrets never)' },
  { method: 'POST', route: '/api/admin/notification-channels', permission: 'notifications.write', tag: 'notifications', summary: 'Add an alert channel (e-mail, webhook, Slack, Feishu, DingTalk, WeCom, Telegram); a webhook without a secret gets one, in this answer only', body: notificationChannelSchema, status: 201 },
  { method: 'DELETE', route: '/api/admin/notification-channels/:id', permission: 'notifications.write', tag: 'notifications', summary: 'Remove an alert channel', status: 204 },
  { method: 'POST', route: '/api/admin/notification-channels/:id/test', permission: 'notifications.write', tag: 'notifications', summary: 'Send a test message now: {delivered, error?}' },
  { method: 'GET', route: '/api/admin/notification-rules', permission: 'notifications.read', tag: 'notifications', summary: 'List alert rules' },
  { method: 'POST', route: '/api/admin/notification-rules', permission: 'notifications.write', tag: 'notifications', summary: 'Add an alert rule: an event, its threshold, channels and audience', body: notificationRuleSchema, status: 201 },
  { method: 'DELETE', route: '/api/admin/notification-rules/:id', permission: 'notifications.write', tag: 'notifications', summary: 'Remove an alert rule', status: 204 },
  { method: 'GET', route: '/api/admin/notification-deliveries', permission: 'notifications.read', tag: 'notifications', summary: 'Queued, sent and dead-lettered messages, newest first (?status=dead: the dead-letter list)', query: deliveryQuerySchema },
  { method: 'POST', route: '/api/admin/notification-deliveries/:id/retry', permission: 'notifications.write', tag: 'notifications', summary: 'Queue a dead-lettered message again (same id)' },

  { method: 'GET', route: '/api/admin/announcements', permission: 'accounts.read', tag: 'notifications', summary: 'List announcements, ended ones too' },
  { method: 'POST', route: '/api/admin/announcements', permission: 'announcements.write', tag: 'notifications', summary: 'Post an announcement to everyone, a group or an account, with an optional end', body: announcementSchema, status: 201 },
  { method: 'DELETE', route: '/api/admin/announcements/:id', permission: 'announcements.write', tag: 'notifications', summary: 'Remove an announcement', status: 204 },

  { method: 'POST', route: '/api/admin/me/totp', permission: 'self', tag: 'admins', summary: 'Enrol your TOTP authenticator: {otpauthUrl, secret, recoveryCodes}, shown once' },
  { method: 'POST', route: '/api/admin/me/totp/verify', permission: 'self', tag: 'admins', summary: 'Confirm the enrolment with the first code; sign-in then asks for `totp`', body: totpCodeSchema },
  { method: 'DELETE', route: '/api/admin/me/totp', permission: 'self', tag: 'admins', summary: 'Turn your TOTP off (needs a current code)', body: totpCodeSchema, status: 204 },
  { method: 'DELETE', route: '/api/admin/admins/:id/totp', permission: 'admins.write', tag: 'admins', summary: 'Clear an admin’s lost authenticator (ends their sessions)', status: 204 },
  { method: 'POST', route: '/api/admin/session/passkey/options', permission: 'public', tag: 'admins', summary: 'Start a passkey sign-in: WebAuthn request options (the challenge is tied to this browser by a cookie)' },
  { method: 'POST', route: '/api/admin/session/passkey', permission: 'public', tag: 'admins', summary: 'Finish a passkey sign-in (two factors on its own); sets the session cookie, answers the CSRF token', body: passkeySignInSchema },
  { method: 'GET', route: '/api/admin/me/passkeys', permission: 'self', tag: 'admins', summary: 'Your passkeys: name, created, last used' },
  { method: 'POST', route: '/api/admin/me/passkeys/options', permission: 'self', tag: 'admins', summary: 'Start registering a passkey: WebAuthn creation options' },
  { method: 'POST', route: '/api/admin/me/passkeys', permission: 'self', tag: 'admins', summary: 'Finish registering a passkey with the authenticator’s answer', body: passkeyRegistrationSchema, status: 201 },
  { method: 'PATCH', route: '/api/admin/me/passkeys/:passkeyId', permission: 'self', tag: 'admins', summary: 'Rename one of your passkeys', body: passkeyRenameSchema },
  { method: 'DELETE', route: '/api/admin/me/passkeys/:passkeyId', permission: 'self', tag: 'admins', summary: 'Remove one of your passkeys', status: 204 },
  { method: 'GET', route: '/api/admin/admins/:id/passkeys', permission: 'admins.read', tag: 'admins', summary: 'An admin’s passkeys' },
  { method: 'DELETE', route: '/api/admin/admins/:id/passkeys/:passkeyId', permission: 'admins.write', tag: 'admins', summary: 'Remove an admin’s passkey (a lost device)', status: 204 },
  { method: 'GET', route: '/api/admin/me/sessions', permission: 'self', tag: 'admins', summary: 'Your console sessions: device, address, last seen' },
  { method: 'DELETE', route: '/api/admin/me/sessions/:sessionId', permission: 'self', tag: 'admins', summary: 'End one of your console sessions', status: 204 },
  { method: 'DELETE', route: '/api/admin/me/sessions', permission: 'self', tag: 'admins', summary: 'Sign out everywhere (every console session of yours)', status: 204 },
  { method: 'GET', route: '/api/admin/users/:id/sessions', permission: 'accounts.read', tag: 'users', summary: 'An account’s portal sessions: device, address, last seen' },
  { method: 'DELETE', route: '/api/admin/users/:id/sessions/:sessionId', permission: 'accounts.suspend', tag: 'users', summary: 'End one portal session of an account', status: 204 },
  { method: 'DELETE', route: '/api/admin/users/:id/sessions', permission: 'accounts.suspend', tag: 'users', summary: 'Sign an account out everywhere', status: 204 },
  { method: 'GET', route: '/api/admin/admins/:id/sessions', permission: 'admins.read', tag: 'admins', summary: 'An admin’s console sessions' },
  { method: 'DELETE', route: '/api/admin/admins/:id/sessions', permission: 'admins.write', tag: 'admins', summary: 'Sign an admin out everywhere', status: 204 },
  { method: 'GET', route: '/api/admin/sign-in-providers', permission: 'admins.read', tag: 'admins', summary: 'OIDC providers people sign in with (never the client secret)' },
  { method: 'POST', route: '/api/admin/sign-in-providers', permission: 'admins.write', tag: 'admins', summary: 'Add or change an OIDC provider (by name); the client secret is sealed', body: signInProviderSchema, status: 201 },
  { method: 'DELETE', route: '/api/admin/sign-in-providers/:name', permission: 'admins.write', tag: 'admins', summary: 'Remove a sign-in provider', status: 204 },
  { method: 'GET', route: '/api/admin/smtp', permission: 'admins.read', tag: 'admins', summary: 'The SMTP server mail goes through (never its password)' },
  { method: 'PATCH', route: '/api/admin/smtp', permission: 'admins.write', tag: 'admins', summary: 'Set the SMTP server; the password is sealed, omit it to keep the stored one', body: smtpSettingsSchema },
  { method: 'GET', route: '/api/admin/sign-in-settings', permission: 'admins.read', tag: 'admins', summary: 'The sign-in rules: TOTP required of admins, OIDC only' },
  { method: 'PATCH', route: '/api/admin/sign-in-settings', permission: 'admins.write', tag: 'admins', summary: 'Require TOTP of every admin; turn passwords off (OIDC only)', body: signInSettingsSchema },

  { method: 'GET', route: '/api/admin/payment-providers', permission: 'payment-providers.read', tag: 'payments', summary: 'Payment providers (Stripe, Epay, manual) with secrets masked' },
  { method: 'PATCH', route: '/api/admin/payment-providers/:name', permission: 'payment-providers.write', tag: 'payments', summary: "Change a provider's settings (stripe: secretKey, webhookSecret, apiBase; epay: pid, key, apiBase); secrets are encrypted at rest", body: PROVIDER_SETTINGS_SCHEMAS.stripe.or(PROVIDER_SETTINGS_SCHEMAS.epay).or(PROVIDER_SETTINGS_SCHEMAS.manual) },
  { method: 'GET', route: '/api/admin/orders', permission: 'orders.read', tag: 'payments', summary: 'Payment orders, newest first (filters: status, user, provider, from, to)', query: orderQuerySchema },
  { method: 'GET', route: '/api/admin/orders/export', permission: 'orders.read', tag: 'payments', summary: 'Orders and refunds as CSV, with a totals line', query: orderQuerySchema },
  { method: 'GET', route: '/api/admin/orders/:id', permission: 'orders.read', tag: 'payments', summary: 'One order' },
  { method: 'POST', route: '/api/admin/orders/:id/refund', permission: 'orders.write', tag: 'payments', summary: 'Refund all or part (amountUsd) of a credited order: unspent credit is taken back, the rest becomes debt', body: orderRefundSchema },
  { method: 'POST', route: '/api/admin/orders/:id/mark-paid', permission: 'orders.write', tag: 'payments', summary: 'Mark a manual order paid (credits it once)' },
  { method: 'GET', route: '/api/admin/promotion-codes', permission: 'orders.read', tag: 'payments', summary: 'Promotion codes and their use' },
  { method: 'POST', route: '/api/admin/promotion-codes', permission: 'promotions.write', tag: 'payments', summary: 'Create a promotion code (percent or fixed, usage limit, expiry; one use per account)', body: promotionCreateSchema, status: 201 },
  { method: 'DELETE', route: '/api/admin/promotion-codes/:code', permission: 'promotions.write', tag: 'payments', summary: 'Delete a promotion code', status: 204 },
  { method: 'PATCH', route: '/api/admin/users/:id/referral', permission: 'account-settings.write', tag: 'payments', summary: "Override one inviter's referral rate (null: the general rate)", body: referralOverrideSchema },
  { method: 'GET', route: '/api/admin/referral-withdrawals', permission: 'orders.read', tag: 'payments', summary: 'Requests to be paid out referral rebates, newest first (filters: status, user)', query: withdrawalQuerySchema },
  { method: 'POST', route: '/api/admin/referral-withdrawals/:id/approve', permission: 'orders.write', tag: 'payments', summary: 'Approve a pending withdrawal (moves no money; pay it, then mark it paid)', body: withdrawalDecisionSchema },
  { method: 'POST', route: '/api/admin/referral-withdrawals/:id/reject', permission: 'orders.write', tag: 'payments', summary: 'Reject a withdrawal (reason); the held amount goes back to the wallet once', body: withdrawalDecisionSchema },
  { method: 'POST', route: '/api/admin/referral-withdrawals/:id/mark-paid', permission: 'orders.write', tag: 'payments', summary: 'Record that a withdrawal was paid out (payoutRef)', body: withdrawalDecisionSchema },
];
