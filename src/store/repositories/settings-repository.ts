import type { SettingsRepository } from '../store.ts';
import type { StoreContext } from '../store-context.ts';

export function createSettingsRepository({ db, now }: StoreContext): SettingsRepository {
  return {
    async get(name) {
      const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
      return row?.value;
    },

    async set(name, value) {
      const updatedAt = now();
      await db
        .insertInto('settings')
        .values({ name, value, updated_at: updatedAt })
        .onConflict((conflict) => conflict.column('name').doUpdateSet({ value, updated_at: updatedAt }))
        .execute();
    },
  };
}
