import type { IdentityOwner, Passkey } from '../domain/identity.ts';

/** Passkeys (issue 29): the public keys people sign in with, by owner; the counter moves forward only. */
export interface PasskeyRepository {
  list(owner: IdentityOwner): Promise<Passkey[]>;
  findByCredentialId(credentialId: string): Promise<Passkey | undefined>;
  /** Refused (StoreConflictError on `credentialId`) when the credential is already registered. */
  create(passkey: Omit<Passkey, 'id' | 'createdAt' | 'lastUsedAt'>): Promise<Passkey>;
  /** Records a sign-in: sets the counter if it still holds `previousCounter` (false: another sign-in won the race). */
  recordUse(id: string, previousCounter: number, counter: number, at: number): Promise<boolean>;
  rename(owner: IdentityOwner, id: string, name: string): Promise<Passkey | undefined>;
  delete(owner: IdentityOwner, id: string): Promise<boolean>;
}
