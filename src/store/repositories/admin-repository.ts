import type { Admin, AdminRole, AdminToken } from '../../domain/admin.ts';
import type { AdminRepository } from '../store.ts';
import type { AdminsTable, AdminTokensTable } from '../admin-tables.ts';
import type { StoreContext } from '../store-context.ts';
import { translateConstraintError, type ConflictMessages } from '../translate-constraint-error.ts';

function conflicts(name: string, email: string): ConflictMessages {
  return {
    unique: {
      name: { field: 'name', message: `an admin named "${name}" already exists` },
      email: { field: 'email', message: `an admin with e-mail "${email}" already exists` },
    },
  };
}

export function createAdminRepository({ db, now, generateId }: StoreContext): AdminRepository {
  const byId = (id: string) => db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirst();

  return {
    async list() {
      return (await db.selectFrom('admins').selectAll().orderBy('created_at').orderBy('id').execute()).map(toAdmin);
    },

    async find(reference) {
      const login = reference.trim().toLowerCase();
      const row =
        (await byId(reference)) ??
        (await db
          .selectFrom('admins')
          .selectAll()
          .where((eb) => eb.or([eb('name', '=', login), eb('email', '=', login)]))
          .executeTakeFirst());
      return row ? toAdmin(row) : undefined;
    },

    async create(admin) {
      const time = now();
      const row: AdminsTable = {
        id: generateId('adm'),
        name: admin.name.trim().toLowerCase(),
        email: admin.email.trim().toLowerCase(),
        role: admin.role,
        password_hash: admin.passwordHash,
        enabled: 1,
        created_at: time,
        updated_at: time,
      };
      try {
        await db.insertInto('admins').values(row).execute();
      } catch (error) {
        throw translateConstraintError(error, conflicts(row.name, row.email));
      }
      return toAdmin(row);
    },

    async update(id, patch) {
      const values: Partial<AdminsTable> = { updated_at: now() };
      if (patch.name !== undefined) values.name = patch.name.trim().toLowerCase();
      if (patch.email !== undefined) values.email = patch.email.trim().toLowerCase();
      if (patch.role !== undefined) values.role = patch.role;
      if (patch.passwordHash !== undefined) values.password_hash = patch.passwordHash;
      if (patch.enabled !== undefined) values.enabled = patch.enabled ? 1 : 0;
      try {
        await db.updateTable('admins').set(values).where('id', '=', id).execute();
      } catch (error) {
        throw translateConstraintError(error, conflicts(values.name ?? '', values.email ?? ''));
      }
      const row = await byId(id);
      return row ? toAdmin(row) : undefined;
    },

    async delete(id) {
      const result = await db.deleteFrom('admins').where('id', '=', id).executeTakeFirst();
      await db.deleteFrom('admin_sessions').where('admin_id', '=', id).execute();
      return Number(result.numDeletedRows) > 0;
    },

    async countEnabledOwners() {
      const row = await db
        .selectFrom('admins')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('role', '=', 'owner')
        .where('enabled', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async createSession(session) {
      await db
        .insertInto('admin_sessions')
        .values({
          token_hash: session.tokenHash,
          admin_id: session.adminId,
          csrf_token: session.csrfToken,
          client_ip: session.clientIp,
          created_at: session.createdAt,
          expires_at: session.expiresAt,
          sign_in_method: session.signInMethod ?? null,
        })
        .execute();
    },

    async findSession(tokenHash, at) {
      const row = await db.selectFrom('admin_sessions').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', at).executeTakeFirst();
      if (!row) return undefined;
      return {
        tokenHash: row.token_hash,
        adminId: row.admin_id,
        csrfToken: row.csrf_token,
        clientIp: row.client_ip,
        createdAt: Number(row.created_at),
        expiresAt: Number(row.expires_at),
        ...(row.sign_in_method === 'passkey' ? { signInMethod: 'passkey' as const } : {}),
      };
    },

    async deleteSession(tokenHash) {
      await db.deleteFrom('admin_sessions').where('token_hash', '=', tokenHash).execute();
    },

    async deleteSessionsOf(adminId) {
      await db.deleteFrom('admin_sessions').where('admin_id', '=', adminId).execute();
    },

    async createToken(token) {
      const row: AdminTokensTable = {
        id: generateId('tok'),
        name: token.name,
        role: token.role,
        token_hash: token.tokenHash,
        created_by: token.createdBy,
        created_at: now(),
        expires_at: token.expiresAt,
      };
      await db.insertInto('admin_tokens').values(row).execute();
      return toToken(row);
    },

    async findToken(tokenHash, at) {
      const row = await db.selectFrom('admin_tokens').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', at).executeTakeFirst();
      return row ? toToken(row) : undefined;
    },

    async listTokens() {
      return (await db.selectFrom('admin_tokens').selectAll().orderBy('created_at').orderBy('id').execute()).map(toToken);
    },

    async deleteToken(id) {
      const result = await db.deleteFrom('admin_tokens').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

function toAdmin(row: AdminsTable): Admin {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role as AdminRole,
    passwordHash: row.password_hash,
    enabled: Number(row.enabled) === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toToken(row: AdminTokensTable): AdminToken {
  return {
    id: row.id,
    name: row.name,
    role: row.role as AdminRole,
    tokenHash: row.token_hash,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}
