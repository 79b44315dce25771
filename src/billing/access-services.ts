import type { Logger } from 'pino';
import { BalanceMeter, type SpendBaseline } from './balance-meter.ts';
import { AccountBilling } from './account-billing.ts';
import { ChargeWriter } from './charge-writer.ts';
import { SubscriptionMeter } from './subscription-meter.ts';
import { WalletMeter } from './wallet-meter.ts';
import type { Kv } from '../kv/kv.ts';
import type { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import type { Store } from '../store/store.ts';
import { AuthFailureThrottle, type AuthThrottleOptions } from '../access/auth-failure-throttle.ts';
import { RateLimiter } from './rate-limiter.ts';
import { createClientIpResolver, type ClientIpHeader, type ClientIpResolver } from '../access/resolve-client-ip.ts';

/** The stateful parts of access control and metering, built once per process. */
export interface AccessServices {
  kv: Kv;
  clientIp: ClientIpResolver;
  /** Failed admin-token attempts per address (429 after too many). */
  adminAuthThrottle: AuthFailureThrottle;
  rateLimiter: RateLimiter;
  balances: BalanceMeter;
  charges: ChargeWriter;
  /** Users' wallets; `walletCharges` writes their settled charges. */
  wallets: WalletMeter;
  walletCharges: ChargeWriter;
  /** Subscription quotas; `subscriptionUsage` writes their settled usage. */
  subscriptions: SubscriptionMeter;
  subscriptionUsage: ChargeWriter;
  /** What pays for a request (key balance, wallet, subscription) by the group's billing mode. */
  billing: AccountBilling;
  strictPricing: boolean;
  /** Output tokens reserved for an uncapped request to a model of unknown maximum (RESERVE_OUTPUT_TOKENS). */
  reservedOutputTokens?: number;
  close(): Promise<void>;
}

export function createAccessServices(input: {
  kv: Kv;
  store: Store;
  snapshot: SnapshotHolder;
  now: () => number;
  logger: Logger;
  trustedProxies: readonly string[];
  clientIpHeader?: ClientIpHeader;
  adminAuthThrottle?: AuthThrottleOptions;
  strictPricing: boolean;
  reservedOutputTokens?: number;
  spendBaseline: SpendBaseline;
  /** How long an unreleased concurrency slot lives (longer than the longest request). */
  slotLeaseMs?: number;
}): AccessServices {
  const charges = new ChargeWriter(input.store.keys, input.logger);
  const walletCharges = new ChargeWriter({ applyCharges: (batch, batchId) => input.store.users.applyCharges(batch, batchId) }, input.logger);
  const subscriptionUsage = new ChargeWriter({ applyCharges: (batch, batchId) => input.store.subscriptions.applyUsage(batch, batchId) }, input.logger);
  const balances = new BalanceMeter({
    kv: input.kv,
    charges,
    spendBaseline: input.spendBaseline,
    readKey: (keyId) => input.store.keys.get(keyId),
    now: input.now,
  });
  const wallets = new WalletMeter({
    kv: input.kv,
    charges: walletCharges,
    readUser: (userId) => input.store.users.find(userId),
  });
  const subscriptions = new SubscriptionMeter({
    kv: input.kv,
    usage: subscriptionUsage,
    readUsage: (subscriptionId, windows) => input.store.subscriptions.usage(subscriptionId, windows),
    now: input.now,
  });
  return {
    kv: input.kv,
    clientIp: createClientIpResolver(input.trustedProxies, input.clientIpHeader),
    adminAuthThrottle: new AuthFailureThrottle(input.now, input.adminAuthThrottle),
    rateLimiter: new RateLimiter(input.kv, input.now, input.slotLeaseMs),
    balances,
    charges,
    wallets,
    walletCharges,
    subscriptions,
    subscriptionUsage,
    billing: new AccountBilling({ balances, wallets, subscriptions, snapshot: () => input.snapshot.current, now: input.now }),
    strictPricing: input.strictPricing,
    ...(input.reservedOutputTokens === undefined ? {} : { reservedOutputTokens: input.reservedOutputTokens }),
    async close() {
      await Promise.all([charges.close(), walletCharges.close(), subscriptionUsage.close()]);
      await input.kv.close();
    },
  };
}
