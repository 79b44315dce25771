import { createHash } from 'node:crypto';

/** A payer's identity as the provider gives it (an e-mail, a buyer id), hashed: compared, never shown. */
export function hashPayer(identity: string): string {
  return createHash('sha256').update(identity.trim().toLowerCase(), 'utf8').digest('hex').slice(0, 32);
}
