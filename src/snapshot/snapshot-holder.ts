import type { Store } from '../store/store.ts';
import { buildSnapshot, type Snapshot } from './snapshot.ts';

/**
 * Owns the current snapshot. `reload()` reads the store once and swaps the snapshot in one
 * assignment, so a request sees either the old or the new state, never a mix. Concurrent
 * reload calls coalesce: at most one read runs, and one more follows if changes arrived
 * meanwhile.
 *
 * `reload()` is what a change made here calls: after reading, it tells the other instances
 * (`onReloaded`, a pub/sub publish when Redis is configured). `refresh()` only reads, and is
 * what an instance calls when told by another one, so messages never echo.
 */
export class SnapshotHolder {
  /**
   * The snapshot requests read. A plain field rather than a getter: every request reads it, and
   * only this class assigns it (in one assignment, see above).
   */
  current: Snapshot;
  #running: Promise<void> | undefined;
  #again = false;
  /** Called after each `reload()` (not `refresh()`); failures are the listener's to log. */
  onReloaded: (() => Promise<void>) | undefined;

  private constructor(
    private readonly store: Store,
    private readonly now: () => number,
    initial: Snapshot,
  ) {
    this.current = initial;
  }

  static async load(store: Store, now: () => number): Promise<SnapshotHolder> {
    return new SnapshotHolder(store, now, await readSnapshot(store, now));
  }

  async reload(): Promise<void> {
    await this.refresh();
    await this.onReloaded?.();
  }

  refresh(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          this.current = await readSnapshot(this.store, this.now);
        } while (this.#again);
      } finally {
        this.#running = undefined;
      }
    })();
    return this.#running;
  }
}

async function readSnapshot(store: Store, now: () => number): Promise<Snapshot> {
  const [keys, groups, channels, prices, users, plans, subscriptions, priceVersions] = await Promise.all([
    store.keys.list(),
    store.groups.list(),
    store.channels.list(),
    store.prices.list(),
    store.users.list(),
    store.plans.list(),
    store.subscriptions.list(),
    store.priceVersions.list(),
  ]);
  return buildSnapshot({ keys, groups, channels, prices, users, plans, subscriptions, priceVersions, loadedAt: now() });
}
