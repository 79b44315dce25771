import { hashApiKey } from './hash-api-key.ts';
import { generateAdminToken } from '../core/create-runtime.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { Store } from '../store/store.ts';

export const ADMIN_TOKEN_HASH_SETTING = 'admin.token-hash';
/**
 * A generated admin token nobody has used yet, sealed with the gateway secret. Kept so that a
 * first start that fails after generating it (a busy port, a worker that cannot listen) does not
 * lose it: every start shows it again until the first admin request authenticates with it.
 * Cleared (set to '') on that first use; from then on only the hash remains.
 */
export const PENDING_ADMIN_TOKEN_SETTING = 'admin.token-pending';

export interface ResolvedAdminToken {
  adminTokenHash: string;
  /** A generated token not used yet: shown by the caller once the gateway listens. */
  pendingAdminToken: string | undefined;
}

/**
 * GATEWAY_ADMIN_TOKEN wins when set. Otherwise the hash stored by an earlier start is used (and
 * its token offered again while it was never used); on the very first start a token is
 * generated, its hash stored with the sealed token kept as pending until first use.
 */
export async function resolveAdminToken(store: Store, configured: string | undefined, secretBox: SecretBox): Promise<ResolvedAdminToken> {
  if (configured) return { adminTokenHash: hashApiKey(configured), pendingAdminToken: undefined };
  const stored = await store.settings.get(ADMIN_TOKEN_HASH_SETTING);
  if (stored) return { adminTokenHash: stored, pendingAdminToken: await readPending(store, secretBox, stored) };
  const token = generateAdminToken();
  const adminTokenHash = hashApiKey(token);
  await store.settings.set(PENDING_ADMIN_TOKEN_SETTING, secretBox.seal(token));
  await store.settings.set(ADMIN_TOKEN_HASH_SETTING, adminTokenHash);
  return { adminTokenHash, pendingAdminToken: token };
}

async function readPending(store: Store, secretBox: SecretBox, hash: string): Promise<string | undefined> {
  const sealed = await store.settings.get(PENDING_ADMIN_TOKEN_SETTING);
  if (!sealed) return undefined;
  try {
    const token = secretBox.open(sealed);
    return hashApiKey(token) === hash ? token : undefined;
  } catch {
    return undefined; // sealed under another gateway secret: the token cannot be shown again
  }
}

/** Marks the generated token as used: it is never shown again. */
export async function claimAdminToken(store: Store): Promise<void> {
  await store.settings.set(PENDING_ADMIN_TOKEN_SETTING, '');
}
