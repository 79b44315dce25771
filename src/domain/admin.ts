/** The roles an operator account (or a minted admin token) holds; see `access/admin-permissions.ts`. */
export const ADMIN_ROLES = ['owner', 'admin', 'finance', 'support', 'auditor'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** A named operator account of the console (issue 29). */
export interface Admin {
  id: string;
  name: string;
  email: string;
  role: AdminRole;
  /** `scrypt$…` (see access/hash-password.ts); the password itself is never stored. */
  passwordHash: string;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export type NewAdmin = Pick<Admin, 'name' | 'email' | 'role' | 'passwordHash'>;
export type AdminPatch = Partial<Pick<Admin, 'name' | 'email' | 'role' | 'passwordHash' | 'enabled'>>;

/** A console session: the cookie value and CSRF token are random; only the cookie's SHA-256 is kept. */
export interface AdminSession {
  tokenHash: string;
  adminId: string;
  csrfToken: string;
  clientIp: string | null;
  createdAt: number;
  expiresAt: number;
  /** How it signed in; `passkey` counts as two factors (issue 29). Absent: a password (or a provider). */
  signInMethod?: 'passkey';
}

/** A scoped, expiring bearer token for automation, minted by a person; only its SHA-256 is kept. */
export interface AdminToken {
  id: string;
  name: string;
  role: AdminRole;
  tokenHash: string;
  /** The admin who minted it (null: the break-glass token). */
  createdBy: string | null;
  createdAt: number;
  expiresAt: number;
}
