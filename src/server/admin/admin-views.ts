import type { ChannelHealthView } from '../../relay/routing/channel-health.ts';
import { priceToUsd } from '../../ledger/price-input.ts';
import type { ApiKey } from '../../domain/api-key.ts';
import type { Channel } from '../../domain/channel.ts';
import type { ModelPrice } from '../../domain/model-price.ts';
import { microsToUsd } from '../../domain/money.ts';
import type { HealthStatusView } from '../../relay/routing/health-status.ts';
import type { AdminApiKey, AdminApiKeyListing, AdminChannel, AdminPrice } from './admin-api-types.ts';
import { nextPayer } from '../../billing/next-payer.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';

/** Shows the first and last characters of a secret, enough to tell keys apart, never enough to use one. */
export function maskSecret(secret: string): string {
  if (secret.length <= 10) return '****';
  return `${secret.slice(0, 4)}…${secret.slice(-4)}`;
}

/** A channel as the admin API shows it: upstream secrets masked, never returned; live health alongside. */
export function channelView(channel: Channel, health?: ChannelHealthView & HealthStatusView): AdminChannel {
  const { apiKeys, ...rest } = channel;
  return { ...rest, apiKeys: apiKeys.map(maskSecret), apiKeyCount: apiKeys.length, ...(health ? { health } : {}) };
}

/** A key as the admin API shows it: the hash stays inside, money in USD. */
export function keyView(key: ApiKey): AdminApiKey {
  const { keyHash: _hash, balanceMicros, spentMicros, limits, expiresAt, userId, ...rest } = key;
  return {
    ...rest,
    /** The owning user's id; with `balance` null such a key spends from the user's wallet. */
    user: userId ?? null,
    expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
    balance: balanceMicros === null ? null : microsToUsd(balanceMicros),
    spent: microsToUsd(spentMicros),
    limits: {
      ...(limits.requestsPerMinute === undefined ? {} : { requestsPerMinute: limits.requestsPerMinute }),
      ...(limits.tokensPerMinute === undefined ? {} : { tokensPerMinute: limits.tokensPerMinute }),
      ...(limits.concurrentRequests === undefined ? {} : { concurrentRequests: limits.concurrentRequests }),
      ...(limits.dailySpendMicros === undefined ? {} : { dailySpend: microsToUsd(limits.dailySpendMicros) }),
      ...(limits.weeklySpendMicros === undefined ? {} : { weeklySpend: microsToUsd(limits.weeklySpendMicros) }),
      ...(limits.monthlySpendMicros === undefined ? {} : { monthlySpend: microsToUsd(limits.monthlySpendMicros) }),
    },
  };
}

/**
 * A key as the admin API answers with it: `keyView` plus its owner, what pays (from the current
 * snapshot) and what it can spend now (`availableMicros`, the live figure; null when unlimited).
 */
export function keyListingView(key: ApiKey, snapshot: Snapshot, now: number, availableMicros: number | null): AdminApiKeyListing {
  const owner = key.userId ? snapshot.users.get(key.userId) : undefined;
  return {
    ...keyView(key),
    owner: owner === undefined ? null : { id: owner.id, name: owner.name },
    paysFrom: nextPayer(snapshot, key, snapshot.groups.get(key.group), now),
    available: availableMicros === null ? null : microsToUsd(availableMicros),
  };
}

export function priceView(price: ModelPrice): AdminPrice {
  const { model, updatedAt, version, ...figures } = price;
  return {
    model,
    ...(priceToUsd(figures) as Omit<AdminPrice, 'model' | 'updatedAt'>),
    ...(version === undefined ? {} : { version }),
    updatedAt: new Date(updatedAt).toISOString(),
  };
}
