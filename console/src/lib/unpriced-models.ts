import type { AdminData } from './admin-data.ts';

export interface UnpricedModel {
  model: string;
  /** Groups with at least one key holding a balance that can use this model. */
  groups: string[];
}

/**
 * Models without a price that a key with a balance can reach: those requests cost nothing and
 * never draw the balance down, which is rarely what an operator who set a balance wants.
 * (STRICT_PRICING refuses them instead; the console warns and offers to price them.)
 */
export function unpricedModels(admin: AdminData): UnpricedModel[] {
  const priced = new Set(admin.prices.map((price) => price.model));
  const funded = new Set(admin.keys.filter((key) => key.enabled && key.balance !== null).map((key) => key.group));
  const found = new Map<string, Set<string>>();
  for (const channel of admin.channels) {
    if (!channel.enabled) continue;
    const groups = channel.groups.filter((group) => funded.has(group));
    if (groups.length === 0) continue;
    for (const model of channel.models) {
      if (priced.has(model)) continue;
      const entry = found.get(model) ?? new Set<string>();
      for (const group of groups) entry.add(group);
      found.set(model, entry);
    }
  }
  return [...found].map(([model, groups]) => ({ model, groups: [...groups].sort() })).sort((a, b) => a.model.localeCompare(b.model));
}
