import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { PortalKey } from '../domain/account-portal-api.ts';
import type { ApiKey } from '../domain/api-key.ts';
import { microsToUsd, usdToMicros } from '../domain/money.ts';
import type { User } from '../domain/user.ts';
import { listGroupModels } from '../snapshot/snapshot.ts';
import { generateApiKey } from '../store/generate-api-key.ts';
import { hashApiKey } from '../access/hash-api-key.ts';
import { keyHint } from '../store/key-hint.ts';
import { StoreConflictError } from '../store/store.ts';
import { accountKeyGroups, accountSubscriptions } from './portal-account.ts';
import type { PortalDeps } from './portal-deps.ts';

/** An account may hold this many keys; enough for every client and machine, not for a flood. */
const MAX_KEYS_PER_ACCOUNT = 50;

/** Spend caps in USD as the account sets them on its own key; null removes one. */
export interface AccountKeyCaps {
  dailySpend?: number | null | undefined;
  weeklySpend?: number | null | undefined;
  monthlySpend?: number | null | undefined;
}

export interface AccountKeyInput {
  name: string;
  group: string;
  allowedIps?: string[] | null | undefined;
  limits?: AccountKeyCaps | undefined;
}

export type AccountKeyPatch = Partial<Omit<AccountKeyInput, 'group'>>;

export async function accountKeys(deps: PortalDeps, user: User): Promise<ApiKey[]> {
  return (await deps.store.keys.list()).filter((key) => key.userId === user.id);
}

/** One of the account's keys; someone else's key and no key at all answer alike (ids stay secret). */
export async function accountKey(deps: PortalDeps, user: User, id: string): Promise<ApiKey> {
  const key = (await accountKeys(deps, user)).find((entry) => entry.id === id);
  if (!key) throw new GatewayError('not_found', `You have no key with id "${id}".`);
  return key;
}

/** A new key in one of the account's groups, spending from its wallet or subscription; the secret is returned once. */
export async function createAccountKey(deps: PortalDeps, user: User, input: AccountKeyInput): Promise<{ key: ApiKey; secret: string }> {
  const groups = await accountKeyGroups(deps, await accountSubscriptions(deps, user));
  if (!groups.some((group) => group.name === input.group)) {
    throw invalidRequest(
      `group: you may create keys in ${groups.length ? groups.map((group) => `"${group.name}"`).join(', ') : 'no group yet (redeem a subscription code first)'}, not "${input.group}".`,
      'group',
    );
  }
  if ((await accountKeys(deps, user)).length >= MAX_KEYS_PER_ACCOUNT) {
    throw new GatewayError('conflict', `An account may hold at most ${MAX_KEYS_PER_ACCOUNT} keys; revoke one you no longer use first.`);
  }
  const secret = generateApiKey();
  const key = await withinAccount(
    deps.store.keys.create({
      name: input.name,
      group: input.group,
      keyHash: hashApiKey(secret),
      keyHint: keyHint(secret),
      expiresAt: null,
      // No own balance: the key spends from the account's wallet (or its subscription).
      balanceMicros: null,
      allowedModels: null,
      allowedIps: input.allowedIps ?? null,
      enabled: true,
      limits: capsToLimits({}, input.limits),
      userId: user.id,
    }),
  );
  await deps.snapshot.reload();
  return { key, secret };
}

export async function updateAccountKey(deps: PortalDeps, key: ApiKey, input: AccountKeyPatch): Promise<ApiKey> {
  const updated = await withinAccount(
    deps.store.keys.update(key.id, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.allowedIps === undefined ? {} : { allowedIps: input.allowedIps }),
      ...(input.limits === undefined ? {} : { limits: capsToLimits(key.limits, input.limits) }),
    }),
  );
  await deps.snapshot.reload();
  return updated ?? key;
}

export async function deleteAccountKey(deps: PortalDeps, key: ApiKey): Promise<void> {
  await deps.store.keys.delete(key.id);
  await deps.snapshot.reload();
}

/** The key as its account sees it: never the secret; spend includes charges still being written. */
export function accountKeyView(deps: PortalDeps, key: ApiKey): PortalKey {
  const limits: Record<string, number> = {};
  if (key.limits.dailySpendMicros !== undefined) limits.dailySpend = microsToUsd(key.limits.dailySpendMicros);
  if (key.limits.weeklySpendMicros !== undefined) limits.weeklySpend = microsToUsd(key.limits.weeklySpendMicros);
  if (key.limits.monthlySpendMicros !== undefined) limits.monthlySpend = microsToUsd(key.limits.monthlySpendMicros);
  return {
    id: key.id,
    name: key.name,
    group: key.group,
    keyHint: key.keyHint,
    enabled: key.enabled,
    expiresAt: key.expiresAt === null ? null : new Date(key.expiresAt).toISOString(),
    spent: microsToUsd(key.spentMicros + deps.access.charges.pending(key.id)),
    allowedIps: key.allowedIps,
    // What the key's group serves (even while a subscription is suspended, so the model check
    // and the client snippets can still name the model).
    models: listGroupModels(deps.snapshot.current, key.group).filter((model) => key.allowedModels === null || key.allowedModels.includes(model)),
    limits,
    createdAt: new Date(key.createdAt).toISOString(),
  };
}

/**
 * A store conflict on an account's own key is a 409 about that account's keys: key names are
 * unique per account (migration 011), so a name another account uses is no conflict at all, and
 * nothing about other accounts' keys can be learnt from the answer.
 */
async function withinAccount<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    const message = error.field === 'name' ? 'You already have a key with that name; choose another.' : error.message;
    throw new GatewayError('conflict', message, { param: error.field });
  }
}

/** Spend caps the account sets on its own key; the operator's rate limits on it are kept. */
function capsToLimits(current: ApiKey['limits'], caps: AccountKeyCaps | undefined): ApiKey['limits'] {
  const next = { ...current };
  if (!caps) return next;
  const set = (field: 'dailySpendMicros' | 'weeklySpendMicros' | 'monthlySpendMicros', value: number | null | undefined) => {
    if (value === undefined) return;
    if (value === null) delete next[field];
    else next[field] = usdToMicros(value);
  };
  set('dailySpendMicros', caps.dailySpend);
  set('weeklySpendMicros', caps.weeklySpend);
  set('monthlySpendMicros', caps.monthlySpend);
  return next;
}
