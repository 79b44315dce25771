import { GatewayError } from '../../core/gateway-error.ts';
import type { Store } from '../../store/store.ts';

// Channels and keys are named by id or by name, like the CLI does. Channel names are unique;
// key names only per account (migration 011), so a key name means the operator's own key of
// that name, else the one key so named; when several accounts use it, the id is needed.

/** The channel with this id, else the one with this name. */
export async function findChannelByReference(store: Store, reference: string) {
  return (await store.channels.get(reference)) ?? (await store.channels.list()).find((channel) => channel.name === reference);
}

/** The key with this id, else the operator's key with this name, else the one key so named (a conflict when several accounts use it). */
export async function findKeyByReference(store: Store, reference: string) {
  const byId = await store.keys.get(reference);
  if (byId) return byId;
  const named = (await store.keys.list()).filter((key) => key.name === reference);
  const chosen = named.find((key) => key.userId === null) ?? (named.length === 1 ? named[0] : undefined);
  if (chosen === undefined && named.length > 1) {
    throw new GatewayError(
      'conflict',
      `${named.length} accounts have a key named "${reference}"; name the key by its id (${named.map((key) => key.id).join(', ')}).`,
    );
  }
  return chosen;
}
