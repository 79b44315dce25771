import type { IdentityOwner, Passkey } from '../../domain/identity.ts';
import type { PasskeysTable } from '../identity-tables.ts';
import type { StoreContext } from '../store-context.ts';
import { StoreConflictError, type PasskeyRepository } from '../store.ts';
import { describeConstraintViolation } from '../translate-constraint-error.ts';

/**
 * Passkeys (issue 29). Only public keys are kept, so the table needs no sealing. A sign-in moves
 * the counter with a conditional write on the value it read, so two instances verifying the same
 * assertion cannot both record it.
 */
export function createPasskeyRepository({ db, now, generateId }: StoreContext): PasskeyRepository {
  const ofOwner = (owner: IdentityOwner) => db.selectFrom('passkeys').selectAll().where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id);

  return {
    async list(owner) {
      return (await ofOwner(owner).orderBy('created_at').execute()).map(toPasskey);
    },

    async findByCredentialId(credentialId) {
      const row = await db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
      return row ? toPasskey(row) : undefined;
    },

    async create(passkey) {
      const row: PasskeysTable = {
        id: generateId('pk'),
        credential_id: passkey.credentialId,
        owner_kind: passkey.owner.kind,
        owner_id: passkey.owner.id,
        name: passkey.name,
        public_key: passkey.publicKey,
        counter: passkey.counter,
        transports: JSON.stringify(passkey.transports),
        backed_up: passkey.backedUp ? 1 : 0,
        created_at: now(),
        last_used_at: null,
      };
      try {
        await db.insertInto('passkeys').values(row).execute();
      } catch (error) {
        if (describeConstraintViolation(error)?.kind === 'unique') throw new StoreConflictError('this passkey is already registered', 'credentialId');
        throw error;
      }
      return toPasskey(row);
    },

    async recordUse(id, previousCounter, counter, at) {
      const result = await db
        .updateTable('passkeys')
        .set({ counter, last_used_at: at })
        .where('id', '=', id)
        .where('counter', '=', previousCounter)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async rename(owner, id, name) {
      await db.updateTable('passkeys').set({ name }).where('id', '=', id).where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id).execute();
      const row = await ofOwner(owner).where('id', '=', id).executeTakeFirst();
      return row ? toPasskey(row) : undefined;
    },

    async delete(owner, id) {
      const result = await db
        .deleteFrom('passkeys')
        .where('id', '=', id)
        .where('owner_kind', '=', owner.kind)
        .where('owner_id', '=', owner.id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

function toPasskey(row: PasskeysTable): Passkey {
  return {
    id: row.id,
    credentialId: row.credential_id,
    owner: { kind: row.owner_kind as IdentityOwner['kind'], id: row.owner_id },
    name: row.name,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: JSON.parse(row.transports) as string[],
    backedUp: Number(row.backed_up) === 1,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}
