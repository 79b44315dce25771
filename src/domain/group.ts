import type { BillingMode } from './billing-mode.ts';

/** A tenant group: keys belong to one, channels serve one or more; its multiplier scales prices. */
export interface Group {
  name: string;
  description: string;
  /** Per-group price multiplier, 1 = list price. */
  priceMultiplier: number;
  /** How the group's requests are paid (default `balance`). */
  billing: BillingMode;
  /**
   * Provider features the group's keys may ask for (none by default): `server-tools` (web search,
   * code execution, hosted MCP… billed by the provider apart from tokens), `stored-objects`
   * (stored prompts, vector stores, containers, conversations of the upstream account) and
   * `priority-tier` (`service_tier: "priority"`).
   */
  allowedFeatures: readonly GroupFeatureClass[];
  createdAt: number;
}

/** The provider feature classes an operator may allow a group (see `Group.allowedFeatures`). */
export const GROUP_FEATURE_CLASSES = ['server-tools', 'stored-objects', 'priority-tier'] as const;
export type GroupFeatureClass = (typeof GROUP_FEATURE_CLASSES)[number];

export type NewGroup = Pick<Group, 'name'> & Partial<Pick<Group, 'description' | 'priceMultiplier' | 'billing' | 'allowedFeatures'>>;
export type GroupPatch = Partial<Pick<Group, 'description' | 'priceMultiplier' | 'billing' | 'allowedFeatures'>>;
