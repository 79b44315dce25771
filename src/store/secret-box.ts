import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Encrypts upstream secrets at rest so a copied database file or dump does not leak them. */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Changing these changes every derived key: they are part of the v1 format.
const HKDF_SALT = 'switchyard';
const HKDF_INFO = 'switchyard channel secrets v1';

/**
 * AES-256-GCM with a key derived by HKDF-SHA256 from the gateway secret. Each value gets a
 * random 96-bit IV. Sealed form: `v1:<iv>:<tag>:<ciphertext>`, each part base64url.
 */
export function createSecretBox(gatewaySecret: Buffer): SecretBox {
  if (gatewaySecret.length === 0) throw new SecretBoxError('the gateway secret is empty');
  const key = Buffer.from(hkdfSync('sha256', gatewaySecret, HKDF_SALT, HKDF_INFO, 32));

  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join(':');
    },
    open(sealed) {
      const parts = sealed.split(':');
      if (parts.length !== 4 || parts[0] !== VERSION) {
        throw new SecretBoxError(`unrecognised encrypted value (expected ${VERSION}:<iv>:<tag>:<ciphertext>)`);
      }
      const iv = Buffer.from(parts[1]!, 'base64url');
      const tag = Buffer.from(parts[2]!, 'base64url');
      const ciphertext = Buffer.from(parts[3]!, 'base64url');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
        throw new SecretBoxError('malformed encrypted value (bad IV or tag length)');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError(
          'GATEWAY_SECRET changed? cannot decrypt channel secrets: the stored values were encrypted with a ' +
            'different gateway secret. Restore the previous GATEWAY_SECRET (or gateway.secret file) or re-enter ' +
            'the channel API keys.',
        );
      }
    },
  };
}
