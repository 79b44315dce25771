import { hashApiKey } from '../access/hash-api-key.ts';
import { keyHint } from '../store/key-hint.ts';
import type { ApiKey, ApiKeyPatch, KeyLimits, NewApiKey } from '../domain/api-key.ts';
import type { Store } from '../store/store.ts';
import { ConfigError } from './config-error.ts';
import type { ConfigFileKey } from './config-file-schema.ts';
import type { KindSummary } from './config-apply-summary.ts';
import { usdToMicros } from '../domain/money.ts';
import { emptyKindSummary, sameValue } from './config-apply-summary.ts';

/**
 * The gateway spends a key's balance, so the file's `balance` cannot simply be compared with the
 * stored one: the value last applied is remembered here, and the stored balance is reset only
 * when the file's value changes (or the key is new to the file).
 */
const appliedBalanceSetting = (keyId: string) => `config-file.applied-balance.${keyId}`;

/**
 * Keys are matched by their secret, else by name within their owner (key names are unique per
 * account, and among keys of no account: migration 011), so a file key never takes over a key an
 * account created under the same name. A changed secret replaces the key (new id, spend counter
 * restarts), because the secret's hash is not something a key update may change.
 */
export async function applyConfigKeys(store: Store, keys: readonly ConfigFileKey[]): Promise<KindSummary> {
  const summary = emptyKindSummary();
  const stored = await store.keys.list();
  const byHash = new Map(stored.map((key) => [key.keyHash, key]));
  const byOwnedName = new Map(stored.map((key) => [ownedName(key.userId ?? null, key.name), key]));
  await refuseSecretsOfOtherKeys(store, keys);

  const problems: string[] = [];
  const userIds = new Map<string, string>();
  for (const [index, entry] of keys.entries()) {
    if (entry.user === undefined || userIds.has(entry.user)) continue;
    const user = await store.users.find(entry.user);
    if (user) userIds.set(entry.user, user.id);
    else problems.push(`keys[${index}].user: unknown user "${entry.user}"`);
  }
  if (problems.length > 0) throw new ConfigError('config file refers to users that exist neither in the file nor in the store:', problems);

  for (const entry of keys) {
    const desired = toNewApiKey(entry, entry.user === undefined ? null : (userIds.get(entry.user) ?? null));
    const current = byHash.get(desired.keyHash) ?? byOwnedName.get(ownedName(desired.userId ?? null, desired.name));
    if (current === undefined) {
      await createKey(store, desired);
      summary.created.push(desired.name);
      continue;
    }
    if (current.keyHash !== desired.keyHash) {
      await store.keys.delete(current.id);
      await createKey(store, desired);
      summary.updated.push(desired.name);
      continue;
    }
    const patch = await diffKey(store, current, desired);
    if (Object.keys(patch).length === 0) {
      summary.unchanged.push(desired.name);
    } else {
      await store.keys.update(current.id, patch);
      if (patch.balanceMicros !== undefined) {
        await store.settings.set(appliedBalanceSetting(current.id), JSON.stringify(desired.balanceMicros));
      }
      summary.updated.push(desired.name);
    }
  }
  return summary;
}

function ownedName(userId: string | null, name: string): string {
  return `${userId ?? ''}\u0000${name}`;
}

async function createKey(store: Store, desired: NewApiKey): Promise<void> {
  const created = await store.keys.create(desired);
  await store.settings.set(appliedBalanceSetting(created.id), JSON.stringify(desired.balanceMicros));
}

async function diffKey(store: Store, current: ApiKey, desired: NewApiKey): Promise<ApiKeyPatch> {
  const patch: ApiKeyPatch = {};
  const fields = ['group', 'expiresAt', 'allowedModels', 'allowedIps', 'enabled', 'limits'] as const;
  for (const field of fields) {
    if (!sameValue(current[field], desired[field])) Object.assign(patch, { [field]: desired[field] });
  }
  if ((current.userId ?? null) !== (desired.userId ?? null)) patch.userId = desired.userId ?? null;
  const applied = await store.settings.get(appliedBalanceSetting(current.id));
  const fileChanged = applied === undefined || applied !== JSON.stringify(desired.balanceMicros);
  if (fileChanged && current.balanceMicros !== desired.balanceMicros) patch.balanceMicros = desired.balanceMicros;
  else if (fileChanged) await store.settings.set(appliedBalanceSetting(current.id), JSON.stringify(desired.balanceMicros));
  return patch;
}

/** A secret already registered under another name would fail inside the store; say so up front. */
async function refuseSecretsOfOtherKeys(store: Store, keys: readonly ConfigFileKey[]): Promise<void> {
  const problems: string[] = [];
  for (const [index, entry] of keys.entries()) {
    const holder = await store.keys.getByHash(hashApiKey(entry.key));
    if (holder !== undefined && holder.name !== entry.name) {
      problems.push(`keys[${index}].key: this secret already belongs to key "${holder.name}"`);
    }
  }
  if (problems.length > 0) throw new ConfigError('config file conflicts with the store:', problems);
}

function toNewApiKey(entry: ConfigFileKey, userId: string | null): NewApiKey {
  const limits: KeyLimits = {};
  const source = entry.limits ?? {};
  if (source.requestsPerMinute !== undefined) limits.requestsPerMinute = source.requestsPerMinute;
  if (source.tokensPerMinute !== undefined) limits.tokensPerMinute = source.tokensPerMinute;
  if (source.concurrentRequests !== undefined) limits.concurrentRequests = source.concurrentRequests;
  if (source.dailySpend !== undefined) limits.dailySpendMicros = usdToMicros(source.dailySpend);
  if (source.weeklySpend !== undefined) limits.weeklySpendMicros = usdToMicros(source.weeklySpend);
  if (source.monthlySpend !== undefined) limits.monthlySpendMicros = usdToMicros(source.monthlySpend);
  return {
    name: entry.name,
    group: entry.group ?? 'default',
    keyHash: hashApiKey(entry.key),
    keyHint: keyHint(entry.key),
    expiresAt: entry.expiresAt ?? null,
    balanceMicros: entry.balance === undefined || entry.balance === null ? null : usdToMicros(entry.balance),
    allowedModels: entry.allowedModels ?? null,
    allowedIps: entry.allowedIps ?? null,
    enabled: entry.enabled ?? true,
    limits,
    ...(userId === null ? {} : { userId }),
  };
}
