import { randomBase62 } from './random-base62.ts';

export type IdPrefix = 'ch' | 'key' | 'usr' | 'plan' | 'sub' | 'rc' | 'adm' | 'tok' | 'nch' | 'nrl' | 'ntf' | 'ann' | 'cir' | 'pv' | 'ord' | 'rb' | 'wd' | 'pk';

/** A record id such as `ch_3kT9…` (16 base62 characters, about 95 bits). */
export function generateId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(16)}`;
}
