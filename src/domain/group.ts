import type { BillingMode } from './billing-mode.ts';

/** A tenant group: keys belong to one, channels serve one or more; its multiplier scales prices. */
export interface Group {
  name: string;
  description: string;
  /** Per-group price multiplier, 1 = list price. */
  priceMultiplier: number;
  /** How the group's requests are paid (default `balance`). */
  billing: BillingMode;
  createdAt: number;
}

export type NewGroup = Pick<Group, 'name'> & Partial<Pick<Group, 'description' | 'priceMultiplier' | 'billing'>>;
export type GroupPatch = Partial<Pick<Group, 'description' | 'priceMultiplier' | 'billing'>>;
