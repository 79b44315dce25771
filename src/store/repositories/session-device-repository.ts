import type { Kysely } from 'kysely';
import type { SessionDevice, SessionDeviceRepository } from '../store.ts';
import type { StoreContext } from '../store-context.ts';

/** A session's public id: the first 16 hex digits of its token's SHA-256 (never the cookie, never the whole hash). */
const ID_LENGTH = 16;
/** Last-seen is written at most once a minute per session: a busy console does not write on every call. */
const TOUCH_EVERY_MS = 60_000;

/**
 * The device view of the portal's (`account_sessions`, by `user_id`) or the console's
 * (`admin_sessions`, by `admin_id`) sessions: list, touch, revoke one, revoke all (issue 29).
 */
export function createSessionDeviceRepository({ db }: StoreContext, table: 'account_sessions' | 'admin_sessions'): SessionDeviceRepository {
  const any = db as unknown as Kysely<any>;
  const owner = table === 'account_sessions' ? 'user_id' : 'admin_id';
  return {
    async touch(tokenHash, at, userAgent) {
      const query = any
        .updateTable(table)
        .set({ last_seen_at: at, ...(userAgent === undefined ? {} : { user_agent: userAgent?.slice(0, 300) ?? null }) })
        .where('token_hash', '=', tokenHash);
      // At sign-in (a user agent given) always; afterwards only when the last write is a minute old.
      const due = userAgent === undefined ? query.where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', at - TOUCH_EVERY_MS)])) : query;
      await due.execute();
    },

    async list(ownerId, at) {
      const rows = await any.selectFrom(table).selectAll().where(owner, '=', ownerId).where('expires_at', '>', at).orderBy('created_at', 'desc').execute();
      return rows.map(
        (row): SessionDevice => ({
          id: String(row.token_hash).slice(0, ID_LENGTH),
          tokenHash: row.token_hash,
          userAgent: row.user_agent ?? null,
          clientIp: row.client_ip ?? null,
          createdAt: Number(row.created_at),
          lastSeenAt: row.last_seen_at == null ? Number(row.created_at) : Number(row.last_seen_at),
          expiresAt: Number(row.expires_at),
        }),
      );
    },

    async revoke(ownerId, id) {
      if (!/^[0-9a-f]{16}$/.test(id)) return false;
      const result = await any.deleteFrom(table).where(owner, '=', ownerId).where('token_hash', 'like', `${id}%`).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async revokeAll(ownerId) {
      const result = await any.deleteFrom(table).where(owner, '=', ownerId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
