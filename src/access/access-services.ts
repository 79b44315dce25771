import type { Logger } from 'pino';
import { BalanceMeter, type SpendBaseline } from '../billing/balance-meter.ts';
import { ChargeWriter } from '../billing/charge-writer.ts';
import type { Kv } from '../kv/kv.ts';
import type { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import type { Store } from '../store/store.ts';
import { AuthFailureThrottle, type AuthThrottleOptions } from './auth-failure-throttle.ts';
import { RateLimiter } from './rate-limiter.ts';
import { createClientIpResolver, type ClientIpHeader, type ClientIpResolver } from './resolve-client-ip.ts';

/** The stateful parts of access control and metering, built once per process. */
export interface AccessServices {
  kv: Kv;
  clientIp: ClientIpResolver;
  /** Failed admin-token attempts per address (429 after too many). */
  adminAuthThrottle: AuthFailureThrottle;
  rateLimiter: RateLimiter;
  balances: BalanceMeter;
  charges: ChargeWriter;
  strictPricing: boolean;
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
  spendBaseline: SpendBaseline;
  /** How long an unreleased concurrency slot lives (longer than the longest request). */
  slotLeaseMs?: number;
}): AccessServices {
  const charges = new ChargeWriter(input.store.keys, input.logger);
  return {
    kv: input.kv,
    clientIp: createClientIpResolver(input.trustedProxies, input.clientIpHeader),
    adminAuthThrottle: new AuthFailureThrottle(input.now, input.adminAuthThrottle),
    rateLimiter: new RateLimiter(input.kv, input.now, input.slotLeaseMs),
    balances: new BalanceMeter({
      kv: input.kv,
      charges,
      currentKey: (keyHash) => input.snapshot.current.keysByHash.get(keyHash),
      spendBaseline: input.spendBaseline,
      readBalance: async (keyId) => (await input.store.keys.get(keyId))?.balanceMicros,
      now: input.now,
    }),
    charges,
    strictPricing: input.strictPricing,
    async close() {
      await charges.close();
      await input.kv.close();
    },
  };
}
