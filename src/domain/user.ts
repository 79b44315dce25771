/**
 * An account: it owns keys and a wallet. Money is integer micro-USD, times epoch ms.
 * The password is stored only as a scrypt hash (`passwordHash`), which never leaves the store
 * layer's callers that need it (the admin views drop it).
 */
export interface User {
  id: string;
  name: string;
  email: string | null;
  /** `scrypt$N$r$p$salt$hash` (base64 parts), or null when the user has no password. */
  passwordHash: string | null;
  /** The wallet, micro-USD; settled charges may take it below zero. */
  balanceMicros: number;
  /** Total charged to the wallet so far, micro-USD. */
  spentMicros: number;
  enabled: boolean;
  createdAt: number;
  /** Bumped (strictly increasing) on every change; the wallet's kv account is named after it. */
  updatedAt: number;
}

export type NewUser = Pick<User, 'name'> & Partial<Pick<User, 'email' | 'passwordHash' | 'balanceMicros' | 'enabled'>>;
export type UserPatch = Partial<Pick<User, 'name' | 'email' | 'passwordHash' | 'balanceMicros' | 'enabled'>>;
