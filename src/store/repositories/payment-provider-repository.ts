import type { PaymentProviderRepository, StoredPaymentProvider } from '../payment-ports.ts';
import type { StoreContext } from '../store-context.ts';

/** Secrets (Stripe's secret key and webhook secret, Epay's key) are sealed with the gateway secret, like channel secrets. */
export function createPaymentProviderRepository({ db, now, secretBox }: StoreContext): PaymentProviderRepository {
  const read = (row: { name: string; enabled: number; settings: string; secrets_sealed: string | null; updated_at: number }): StoredPaymentProvider => ({
    name: row.name,
    enabled: Number(row.enabled) === 1,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    secrets: row.secrets_sealed === null ? {} : (JSON.parse(secretBox.open(row.secrets_sealed)) as Record<string, string>),
    updatedAt: Number(row.updated_at),
  });
  return {
    async list() {
      return (await db.selectFrom('payment_providers').selectAll().orderBy('name').execute()).map(read);
    },
    async get(name) {
      const row = await db.selectFrom('payment_providers').selectAll().where('name', '=', name).executeTakeFirst();
      return row && read(row);
    },
    async save(provider) {
      const row = {
        name: provider.name,
        enabled: provider.enabled ? 1 : 0,
        settings: JSON.stringify(provider.settings),
        secrets_sealed: Object.keys(provider.secrets).length === 0 ? null : secretBox.seal(JSON.stringify(provider.secrets)),
        updated_at: now(),
      };
      await db
        .insertInto('payment_providers')
        .values(row)
        .onConflict((conflict) =>
          conflict.column('name').doUpdateSet({ enabled: row.enabled, settings: row.settings, secrets_sealed: row.secrets_sealed, updated_at: row.updated_at }),
        )
        .execute();
      return read(row);
    },
  };
}
