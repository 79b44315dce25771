import type { Store } from '../../store/store.ts';

// Channels and keys are named by id or by name (names are unique per kind), like the CLI does.

/** The channel with this id, else the one with this name. */
export async function findChannelByReference(store: Store, reference: string) {
  return (await store.channels.get(reference)) ?? (await store.channels.list()).find((channel) => channel.name === reference);
}

/** The key with this id, else the one with this name. */
export async function findKeyByReference(store: Store, reference: string) {
  return (await store.keys.get(reference)) ?? (await store.keys.list()).find((key) => key.name === reference);
}
