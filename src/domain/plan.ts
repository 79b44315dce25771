/** The windows a plan can cap; `total` spans the whole subscription term. */
export type QuotaWindow = 'daily' | 'weekly' | 'monthly' | 'total';
export const QUOTA_WINDOWS: readonly QuotaWindow[] = ['daily', 'weekly', 'monthly', 'total'];

/** USD quotas in micro-USD; an absent window is not capped. */
export type PlanQuota = Partial<Record<QuotaWindow, number>>;

/** What an operator sells: access to one group, for a term, within per-window quotas. */
export interface Plan {
  id: string;
  name: string;
  group: string;
  durationDays: number;
  quota: PlanQuota;
  /** List price in micro-USD, for display only; null = none. */
  priceMicros: number | null;
  description: string;
  createdAt: number;
  updatedAt: number;
}

export type NewPlan = Omit<Plan, 'id' | 'createdAt' | 'updatedAt'>;
export type PlanPatch = Partial<NewPlan>;
