import type { IdentityOwner, OneTimeToken, OneTimePurpose, SignInAudience, SignInProvider, SignInProviderType, TotpFactor } from '../../domain/identity.ts';
import type { IdentityRepository } from '../store.ts';
import type { OneTimeTokensTable, SignInProvidersTable, TotpFactorsTable } from '../identity-tables.ts';
import type { StoreContext } from '../store-context.ts';

const SEALED_PREFIX = 'sealed:';

/**
 * Sign-in factors, one-time links, providers and sealed settings (issue 29). Every secret passes
 * the secret box here, so the rows hold ciphertext only; every "use once" is a conditional write,
 * so two instances racing on one code or link cannot both win.
 */
export function createIdentityRepository({ db, now, secretBox }: StoreContext): IdentityRepository {
  const ownerIs = (owner: IdentityOwner) => db.selectFrom('totp_factors').selectAll().where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id);

  return {
    async findTotp(owner) {
      const row = await ownerIs(owner).executeTakeFirst();
      return row ? toFactor(row, secretBox.open(row.secret_sealed)) : undefined;
    },

    async saveTotp(owner, secret, recoveryHashes) {
      const row: TotpFactorsTable = {
        owner_kind: owner.kind,
        owner_id: owner.id,
        secret_sealed: secretBox.seal(secret),
        recovery_hashes: JSON.stringify(recoveryHashes),
        confirmed_at: null,
        last_step: 0,
        created_at: now(),
      };
      // A new enrolment replaces the old factor only while that one is unconfirmed (the route checks).
      await db.deleteFrom('totp_factors').where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id).execute();
      await db.insertInto('totp_factors').values(row).execute();
    },

    async acceptTotpStep(owner, step, confirm) {
      const result = await db
        .updateTable('totp_factors')
        .set({ last_step: step, ...(confirm ? { confirmed_at: now() } : {}) })
        .where('owner_kind', '=', owner.kind)
        .where('owner_id', '=', owner.id)
        .where('last_step', '<', step)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async useRecoveryCode(owner, codeHash) {
      const row = await ownerIs(owner).executeTakeFirst();
      if (!row || row.confirmed_at === null) return false;
      const hashes = JSON.parse(row.recovery_hashes) as string[];
      if (!hashes.includes(codeHash)) return false;
      // Compare-and-swap on the whole list: of two concurrent uses of one code, one changes the row.
      const result = await db
        .updateTable('totp_factors')
        .set({ recovery_hashes: JSON.stringify(hashes.filter((hash) => hash !== codeHash)) })
        .where('owner_kind', '=', owner.kind)
        .where('owner_id', '=', owner.id)
        .where('recovery_hashes', '=', row.recovery_hashes)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async deleteTotp(owner) {
      const result = await db.deleteFrom('totp_factors').where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async createOneTimeToken(token) {
      await db
        .insertInto('one_time_tokens')
        .values({
          token_hash: token.tokenHash,
          purpose: token.purpose,
          email: token.email,
          payload: token.payload,
          created_at: now(),
          expires_at: token.expiresAt,
          used_at: null,
        })
        .execute();
    },

    async consumeOneTimeToken(tokenHash, purpose, at) {
      const result = await db
        .updateTable('one_time_tokens')
        .set({ used_at: at })
        .where('token_hash', '=', tokenHash)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return undefined;
      const row = await db.selectFrom('one_time_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      return row ? toToken(row) : undefined;
    },

    async pruneOneTimeTokens(at) {
      const result = await db.deleteFrom('one_time_tokens').where('expires_at', '<=', at).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async listProviders() {
      return (await db.selectFrom('sign_in_providers').selectAll().orderBy('name').execute()).map((row) =>
        toProvider(row, secretBox.open(row.client_secret_sealed)),
      );
    },

    async findProvider(name) {
      const row = await db.selectFrom('sign_in_providers').selectAll().where('name', '=', name).executeTakeFirst();
      return row ? toProvider(row, secretBox.open(row.client_secret_sealed)) : undefined;
    },

    async saveProvider(provider) {
      const time = now();
      const values = {
        type: provider.type,
        issuer: provider.issuer,
        client_id: provider.clientId,
        client_secret_sealed: secretBox.seal(provider.clientSecret),
        audiences: JSON.stringify(provider.audiences),
        api_base: provider.apiBase,
        updated_at: time,
      };
      await db
        .insertInto('sign_in_providers')
        .values({ name: provider.name, created_at: time, ...values })
        .onConflict((conflict) => conflict.column('name').doUpdateSet(values))
        .execute();
      const saved = await this.findProvider(provider.name);
      if (!saved) throw new Error(`sign-in provider ${provider.name} vanished after saving`);
      return saved;
    },

    async deleteProvider(name) {
      const result = await db.deleteFrom('sign_in_providers').where('name', '=', name).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async getSealedSetting(name) {
      const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
      if (!row?.value.startsWith(SEALED_PREFIX)) return undefined;
      return secretBox.open(row.value.slice(SEALED_PREFIX.length));
    },

    async setSealedSetting(name, value) {
      const sealed = SEALED_PREFIX + secretBox.seal(value);
      const updatedAt = now();
      await db
        .insertInto('settings')
        .values({ name, value: sealed, updated_at: updatedAt })
        .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: sealed, updated_at: updatedAt }))
        .execute();
    },
  };
}

function toFactor(row: TotpFactorsTable, secret: string): TotpFactor {
  return {
    owner: { kind: row.owner_kind as IdentityOwner['kind'], id: row.owner_id },
    secret,
    recoveryHashes: JSON.parse(row.recovery_hashes) as string[],
    confirmedAt: row.confirmed_at === null ? null : Number(row.confirmed_at),
    lastStep: Number(row.last_step),
    createdAt: Number(row.created_at),
  };
}

function toToken(row: OneTimeTokensTable): OneTimeToken {
  return {
    tokenHash: row.token_hash,
    purpose: row.purpose as OneTimePurpose,
    email: row.email,
    payload: row.payload,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
  };
}

function toProvider(row: SignInProvidersTable, clientSecret: string): SignInProvider {
  return {
    name: row.name,
    type: row.type as SignInProviderType,
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecret,
    audiences: JSON.parse(row.audiences) as SignInAudience[],
    apiBase: row.api_base,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
