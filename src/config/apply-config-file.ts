import { priceFromUsd } from '../ledger/price-input.ts';
import type { NewModelPrice } from '../domain/model-price.ts';
import type { Store } from '../store/store.ts';
import { applyConfigChannels } from './apply-config-channels.ts';
import { applyConfigPlans, applyConfigSubscriptions, applyConfigUsers } from './apply-config-accounts.ts';
import { applyConfigKeys } from './apply-config-keys.ts';
import { channelAddressWarnings } from '../domain/channel-address.ts';
import type { ConfigApplySummary, KindSummary } from './config-apply-summary.ts';
import { emptyKindSummary, sameValue } from './config-apply-summary.ts';
import { ConfigError } from './config-error.ts';
import type { ConfigFile } from './config-file-schema.ts';
import { readConfigFile } from './read-config-file.ts';
import { toNewChannel } from '../domain/new-channel.ts';
import { privateUpstreamProblem } from '../upstream/private-upstream-address.ts';

export interface ApplyConfigFileOptions {
  store: Store;
  /** The YAML file (GATEWAY_CONFIG). */
  path: string;
  /** Source of `${NAME}` values; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** BLOCK_PRIVATE_UPSTREAMS: a channel whose address is private, loopback or link-local is refused. */
  blockPrivateUpstreams?: boolean;
}

/** Reads, validates and applies a config file; see switchyard.example.yaml for the format. */
export async function applyConfigFile(options: ApplyConfigFileOptions): Promise<ConfigApplySummary> {
  const file = await readConfigFile(options.path, options.env ?? process.env);
  if (options.blockPrivateUpstreams === true) await refusePrivateChannelAddresses(file);
  return applyConfig(options.store, file);
}

/**
 * Makes the store match the file, idempotently: records are matched by name (prices by model),
 * created when missing and updated when a field differs; records the file does not mention are
 * left alone. Everything that can be checked is checked before the first write.
 */
export async function applyConfig(store: Store, file: ConfigFile): Promise<ConfigApplySummary> {
  await refuseUnknownGroups(store, file);
  const groups = await applyGroups(store, file.groups ?? []);
  const prices = await applyPrices(store, file.prices ?? []);
  const channels = await applyConfigChannels(store, file.channels ?? []);
  // Users before keys (a key may name its user), plans before subscriptions.
  const users = file.users === undefined ? undefined : await applyConfigUsers(store, file.users);
  const plans = file.plans === undefined ? undefined : await applyConfigPlans(store, file.plans);
  const subscriptions = file.subscriptions === undefined ? undefined : await applyConfigSubscriptions(store, file.subscriptions, Date.now());
  const keys = await applyConfigKeys(store, file.keys ?? []);
  // Applied all the same (a warning, not a refusal); said at start-up.
  const warnings = (file.channels ?? []).flatMap((entry) =>
    channelAddressWarnings(toNewChannel(entry)).map((warning) => `channel "${entry.name}": ${warning}`),
  );
  return {
    groups,
    channels,
    keys,
    prices,
    ...(users ? { users } : {}),
    ...(plans ? { plans } : {}),
    ...(subscriptions ? { subscriptions } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** Every channel's address (its own, or the one its region implies) must be public; checked before any write. */
async function refusePrivateChannelAddresses(file: ConfigFile): Promise<void> {
  const problems: string[] = [];
  for (const [index, channel] of (file.channels ?? []).entries()) {
    const problem = await privateUpstreamProblem(toNewChannel(channel).baseUrl);
    if (problem !== undefined) problems.push(`channels[${index}].baseUrl: ${problem}`);
  }
  if (problems.length > 0) throw new ConfigError('config file names channel addresses the gateway may not connect to:', problems);
}

async function refuseUnknownGroups(store: Store, file: ConfigFile): Promise<void> {
  const known = new Set([...(await store.groups.list()).map((group) => group.name), ...(file.groups ?? []).map((group) => group.name)]);
  const problems: string[] = [];
  file.channels?.forEach((channel, index) => {
    for (const group of channel.groups ?? ['default']) {
      if (!known.has(group)) problems.push(`channels[${index}].groups: unknown group "${group}"`);
    }
  });
  file.keys?.forEach((key, index) => {
    const group = key.group ?? 'default';
    if (!known.has(group)) problems.push(`keys[${index}].group: unknown group "${group}"`);
  });
  file.plans?.forEach((plan, index) => {
    if (!known.has(plan.group)) problems.push(`plans[${index}].group: unknown group "${plan.group}"`);
  });
  if (problems.length > 0) {
    throw new ConfigError('config file refers to groups that exist neither in the file nor in the store:', problems);
  }
}

async function applyGroups(store: Store, groups: NonNullable<ConfigFile['groups']>): Promise<KindSummary> {
  const summary = emptyKindSummary();
  for (const entry of groups) {
    const desired = {
      description: entry.description ?? '',
      priceMultiplier: entry.priceMultiplier ?? 1,
      billing: entry.billing ?? 'balance',
      allowedFeatures: entry.allowedFeatures ?? [],
    };
    const current = await store.groups.get(entry.name);
    if (current === undefined) {
      await store.groups.create({ name: entry.name, ...desired });
      summary.created.push(entry.name);
    } else if (
      current.description === desired.description &&
      current.priceMultiplier === desired.priceMultiplier &&
      current.billing === desired.billing &&
      sameFeatures(current.allowedFeatures, desired.allowedFeatures)
    ) {
      summary.unchanged.push(entry.name);
    } else {
      await store.groups.update(entry.name, desired);
      summary.updated.push(entry.name);
    }
  }
  return summary;
}

function sameFeatures(current: readonly string[], desired: readonly string[]): boolean {
  return current.length === desired.length && desired.every((feature) => current.includes(feature));
}

async function applyPrices(store: Store, prices: NonNullable<ConfigFile['prices']>): Promise<KindSummary> {
  const summary = emptyKindSummary();
  const existing = new Map((await store.prices.list()).map((price) => [price.model, price]));
  for (const entry of prices) {
    const { model, ...figures } = entry;
    const desired: NewModelPrice = priceFromUsd(model, figures);
    const current = existing.get(entry.model);
    if (current !== undefined && sameValue({ ...current, updatedAt: undefined, version: undefined }, desired)) {
      summary.unchanged.push(entry.model);
      continue;
    }
    await store.prices.upsert(desired, { source: 'config' });
    (current === undefined ? summary.created : summary.updated).push(entry.model);
  }
  return summary;
}
