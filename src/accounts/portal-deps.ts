import type { AccessServices } from '../billing/access-services.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import type { Store } from '../store/store.ts';

/** What the account portal's rules read and change: the store, the live snapshot, the meters, the clock. */
export interface PortalDeps {
  store: Store;
  snapshot: SnapshotHolder;
  access: Pick<AccessServices, 'kv' | 'wallets' | 'subscriptions' | 'charges'>;
  runtime: Pick<RuntimeContext, 'now'>;
}
