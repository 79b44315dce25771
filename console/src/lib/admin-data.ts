import { call } from './api.ts';
import type { ApiKeyRecord, Channel, Group, ListAnswer, Price } from './types.ts';

/** Groups, channels, keys and prices in one go: several pages draw from all four. */
export interface AdminData {
  groups: Group[];
  channels: Channel[];
  keys: ApiKeyRecord[];
  prices: Price[];
  /** The operator's token these were read with, for the calls a page makes about them (the model check). */
  token: string;
}

export async function loadAdminData(token: string): Promise<AdminData> {
  const [groups, channels, keys, prices] = await Promise.all([
    call<ListAnswer<Group>>('/api/admin/groups', { bearer: token }),
    call<ListAnswer<Channel>>('/api/admin/channels', { bearer: token }),
    call<ListAnswer<ApiKeyRecord>>('/api/admin/keys', { bearer: token }),
    call<ListAnswer<Price>>('/api/admin/prices', { bearer: token }),
  ]);
  return { groups: groups.data, channels: channels.data, keys: keys.data, prices: prices.data, token };
}
