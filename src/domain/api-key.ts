/** A client key: its group, limits, balance and restrictions. Only the secret's hash is kept. */
export interface ApiKey {
  id: string;
  name: string;
  group: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  keyHash: string;
  /** A short, non-secret hint shown in lists: `sk-abcd…wxyz`. */
  keyHint: string;
  /** Epoch ms; null = never expires. */
  expiresAt: number | null;
  /** Remaining balance in micro-USD; null = unlimited. */
  balanceMicros: number | null;
  /** Total spent so far in micro-USD. */
  spentMicros: number;
  /** null = every model of the group. */
  allowedModels: string[] | null;
  /** IPs or CIDRs (v4 and v6); null = anywhere. */
  allowedIps: string[] | null;
  enabled: boolean;
  limits: KeyLimits;
  /** The user (account) owning the key; with no own balance the key spends from its wallet. Absent = none. */
  userId?: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface KeyLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  concurrentRequests?: number;
  dailySpendMicros?: number;
  weeklySpendMicros?: number;
  monthlySpendMicros?: number;
}

export type NewApiKey = Omit<ApiKey, 'id' | 'createdAt' | 'updatedAt' | 'spentMicros'>;
export type ApiKeyPatch = Partial<
  Pick<ApiKey, 'name' | 'group' | 'expiresAt' | 'balanceMicros' | 'allowedModels' | 'allowedIps' | 'enabled' | 'limits' | 'userId'>
>;
