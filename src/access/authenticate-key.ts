import { GatewayError } from '../core/gateway-error.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { hashApiKey } from './hash-api-key.ts';
import type { ApiKey } from '../domain/api-key.ts';
import type { Group } from '../domain/group.ts';

export interface Caller {
  key: ApiKey;
  group: Group;
}

const INVALID_KEY_MESSAGE =
  'The API key is missing or not valid. Check the request address, the key (it must be the complete key) and the header that carries it.';

/**
 * Finds the key in the snapshot by its hash; an unknown key (or one bound to a deleted group) is
 * refused here. Whether the key may be used now is `requireUsableKey`'s question: the
 * self-service endpoints (`/api/me`, the model check) skip it so that a user whose key expired
 * can still find out why.
 */
export function authenticateKey(snapshot: Snapshot, secret: string | undefined): Caller {
  if (secret === undefined) {
    throw new GatewayError('invalid_api_key', `No API key was sent. ${INVALID_KEY_MESSAGE}`);
  }
  const key = snapshot.keysByHash.get(hashApiKey(secret));
  if (!key) throw new GatewayError('invalid_api_key', INVALID_KEY_MESSAGE);
  const group = snapshot.groups.get(key.group);
  if (!group) {
    throw new GatewayError('invalid_api_key', `The key is bound to group "${key.group}", which no longer exists; ask the operator to rebind it.`);
  }
  return { key, group };
}

/** Refuses a known key that is disabled (or whose account is), or expired. */
export function requireUsableKey(snapshot: Snapshot, { key }: Caller, now: number): void {
  if (!key.enabled) {
    throw new GatewayError('key_disabled', 'This API key has been disabled by the operator; ask them to enable it or issue a new key.');
  }
  const user = key.userId ? snapshot.users.get(key.userId) : undefined;
  if (user !== undefined && !user.enabled) {
    throw new GatewayError('key_disabled', `The account "${user.name}" that owns this API key has been disabled by the operator; ask them to enable it.`);
  }
  if (key.expiresAt !== null && key.expiresAt <= now) {
    throw new GatewayError(
      'key_expired',
      `This API key expired at ${new Date(key.expiresAt).toISOString()}; ask the operator to extend it or issue a new key.`,
    );
  }
}
