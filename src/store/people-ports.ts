import type { Admin, AdminPatch, AdminSession, AdminToken, NewAdmin } from '../domain/admin.ts';
import type { IdentityOwner, OneTimeToken, OneTimePurpose, SignInProvider, TotpFactor } from '../domain/identity.ts';

/* The store's ports for people who sign in: operator accounts, sign-in factors and session devices (re-exported by store.ts). */

/** Operator accounts, their console sessions and the admin tokens they mint (issue 29). */
export interface AdminRepository {
  list(): Promise<Admin[]>;
  /** By id, or by name or e-mail (case-insensitive): the `login` of sign-in. */
  find(reference: string): Promise<Admin | undefined>;
  create(admin: NewAdmin): Promise<Admin>;
  update(id: string, patch: AdminPatch): Promise<Admin | undefined>;
  delete(id: string): Promise<boolean>;
  /** How many enabled owners exist: the last one may not be demoted, disabled or deleted. */
  countEnabledOwners(): Promise<number>;

  createSession(session: AdminSession): Promise<void>;
  /** The session if it exists and has not expired at `now`. */
  findSession(tokenHash: string, now: number): Promise<AdminSession | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Ends every session of one admin (removed, disabled, password or role changed). */
  deleteSessionsOf(adminId: string): Promise<void>;

  createToken(token: Omit<AdminToken, 'id' | 'createdAt'>): Promise<AdminToken>;
  /** The token if it exists and has not expired at `now`. */
  findToken(tokenHash: string, now: number): Promise<AdminToken | undefined>;
  listTokens(): Promise<AdminToken[]>;
  deleteToken(id: string): Promise<boolean>;
}

/** Sign-in factors, one-time links, sign-in providers and sealed settings (issue 29). */
export interface IdentityRepository {
  findTotp(owner: IdentityOwner): Promise<TotpFactor | undefined>;
  /** Replaces the owner's factor with a new, unconfirmed one. */
  saveTotp(owner: IdentityOwner, secret: string, recoveryHashes: string[]): Promise<void>;
  /** Records `step` as used if it is later than every step used before (true), confirming the factor when asked. */
  acceptTotpStep(owner: IdentityOwner, step: number, confirm: boolean): Promise<boolean>;
  /** Removes one unused recovery code of a confirmed factor; true for exactly one of concurrent uses. */
  useRecoveryCode(owner: IdentityOwner, codeHash: string): Promise<boolean>;
  deleteTotp(owner: IdentityOwner): Promise<boolean>;

  createOneTimeToken(token: Omit<OneTimeToken, 'createdAt' | 'usedAt'>): Promise<void>;
  /** Marks the link used if it is unused and unexpired at `now` and returns it; undefined otherwise (once, across instances). */
  consumeOneTimeToken(tokenHash: string, purpose: OneTimePurpose, now: number): Promise<OneTimeToken | undefined>;
  pruneOneTimeTokens(now: number): Promise<number>;

  listProviders(): Promise<SignInProvider[]>;
  findProvider(name: string): Promise<SignInProvider | undefined>;
  saveProvider(provider: Omit<SignInProvider, 'createdAt' | 'updatedAt'>): Promise<SignInProvider>;
  deleteProvider(name: string): Promise<boolean>;

  /** A setting sealed with the gateway secret (SMTP password, captcha secret); undefined when unset. */
  getSealedSetting(name: string): Promise<string | undefined>;
  setSealedSetting(name: string, value: string): Promise<void>;
}

/** One signed-in browser session as its owner sees it (issue 29). */
export interface SessionDevice {
  /** Public id: a prefix of the token's hash. */
  id: string;
  tokenHash: string;
  userAgent: string | null;
  clientIp: string | null;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

/** The sessions of one kind (portal or console) by owner: listed, touched, revoked. */
export interface SessionDeviceRepository {
  /** Records use (at most once a minute); with `userAgent`, at sign-in, also the device. */
  touch(tokenHash: string, at: number, userAgent?: string | null): Promise<void>;
  /** The owner's unexpired sessions, newest first. */
  list(ownerId: string, now: number): Promise<SessionDevice[]>;
  /** Ends one of the owner's sessions by its public id; false when the owner has none such. */
  revoke(ownerId: string, id: string): Promise<boolean>;
  /** Ends every session of the owner (sign out everywhere); how many ended. */
  revokeAll(ownerId: string): Promise<number>;
}
