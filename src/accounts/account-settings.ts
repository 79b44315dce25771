import type { Store } from '../store/store.ts';

const SETTING = 'accounts.default-group';

/**
 * The group an account may create keys in without a subscription (paid from its wallet), or null
 * when accounts need a subscription for any key. Unset means the `default` group, so a new
 * gateway's accounts can use their wallet at once.
 */
export async function accountDefaultGroup(store: Store): Promise<string | null> {
  const value = await store.settings.get(SETTING);
  if (value === undefined) return 'default';
  return value === '' ? null : value;
}

export async function setAccountDefaultGroup(store: Store, group: string | null): Promise<void> {
  await store.settings.set(SETTING, group ?? '');
}
