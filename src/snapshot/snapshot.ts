import type { ApiKey } from '../domain/api-key.ts';
import type { Channel } from '../domain/channel.ts';
import type { Group } from '../domain/group.ts';
import type { ModelPrice } from '../domain/model-price.ts';
import type { PriceVersion } from '../domain/price-version.ts';
import type { Plan } from '../domain/plan.ts';
import type { Subscription } from '../domain/subscription.ts';
import type { User } from '../domain/user.ts';

/**
 * Everything the hot path needs to authorise and route a request, held in memory and swapped
 * whole when the admin API changes something. No request ever reads the database.
 */
export interface Snapshot {
  readonly keysByHash: ReadonlyMap<string, ApiKey>;
  readonly groups: ReadonlyMap<string, Group>;
  readonly channels: ReadonlyMap<string, Channel>;
  /** group → public model name → enabled channels serving it (new-api's "abilities"). */
  readonly routes: ReadonlyMap<string, ReadonlyMap<string, readonly Channel[]>>;
  /** Every model name some enabled channel serves, for "does this model exist at all?". */
  readonly allModels: ReadonlySet<string>;
  readonly prices: ReadonlyMap<string, ModelPrice>;
  /** Price history by `priceBookKey(scope, ref, model)`, oldest effective first (read by snapshot/price-book.ts). */
  readonly priceVersions: ReadonlyMap<string, readonly PriceVersion[]>;
  /** Accounts: users by id, plans by id, each user's subscriptions (all statuses). */
  readonly users: ReadonlyMap<string, User>;
  readonly plans: ReadonlyMap<string, Plan>;
  readonly subscriptionsByUser: ReadonlyMap<string, readonly Subscription[]>;
  readonly loadedAt: number;
}

export function buildSnapshot(input: {
  keys: ApiKey[];
  groups: Group[];
  channels: Channel[];
  prices: ModelPrice[];
  priceVersions?: PriceVersion[];
  users?: User[];
  plans?: Plan[];
  subscriptions?: Subscription[];
  loadedAt: number;
}): Snapshot {
  const subscriptionsByUser = new Map<string, Subscription[]>();
  for (const subscription of input.subscriptions ?? []) {
    const list = subscriptionsByUser.get(subscription.userId);
    if (list) list.push(subscription);
    else subscriptionsByUser.set(subscription.userId, [subscription]);
  }
  const routes = new Map<string, Map<string, Channel[]>>();
  const allModels = new Set<string>();
  for (const group of input.groups) routes.set(group.name, new Map());
  for (const channel of input.channels) {
    if (!channel.enabled) continue;
    for (const model of channel.models) {
      allModels.add(model);
      for (const groupName of channel.groups) {
        const byModel = routes.get(groupName);
        if (!byModel) continue;
        const list = byModel.get(model);
        if (list) list.push(channel);
        else byModel.set(model, [channel]);
      }
    }
  }
  return {
    keysByHash: new Map(input.keys.map((key) => [key.keyHash, key])),
    groups: new Map(input.groups.map((group) => [group.name, group])),
    channels: new Map(input.channels.map((channel) => [channel.id, channel])),
    routes,
    allModels,
    prices: new Map(input.prices.map((price) => [price.model, price])),
    priceVersions: groupPriceVersions(input.priceVersions ?? []),
    users: new Map((input.users ?? []).map((user) => [user.id, user])),
    plans: new Map((input.plans ?? []).map((plan) => [plan.id, plan])),
    subscriptionsByUser,
    loadedAt: input.loadedAt,
  };
}

/** The key of one price list's versions of one model in `Snapshot.priceVersions`. */
export function priceBookKey(scope: PriceVersion['scope'], ref: string, model: string): string {
  return `${scope}\u0000${ref}\u0000${model}`;
}

/** Versions per scope × ref × model, kept in the store's order (oldest effective first). */
function groupPriceVersions(versions: PriceVersion[]): Map<string, PriceVersion[]> {
  const byKey = new Map<string, PriceVersion[]>();
  for (const version of versions) {
    const key = priceBookKey(version.scope, version.ref, version.model);
    const list = byKey.get(key);
    if (list) list.push(version);
    else byKey.set(key, [version]);
  }
  return byKey;
}

/** The models a group can use, sorted for stable listings. */
export function listGroupModels(snapshot: Snapshot, group: string): string[] {
  const byModel = snapshot.routes.get(group);
  return byModel ? [...byModel.keys()].sort() : [];
}
