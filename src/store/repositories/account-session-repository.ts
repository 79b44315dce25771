import type { StoreContext } from '../store-context.ts';

export interface AccountSession {
  /** SHA-256 (hex) of the cookie value; the value itself is never stored. */
  tokenHash: string;
  userId: string;
  /** Sent back on every state-changing call in the x-csrf-token header. */
  csrfToken: string;
  clientIp: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface AccountSessionRepository {
  create(session: AccountSession): Promise<void>;
  /** The session if it exists and has not expired at `now`. */
  find(tokenHash: string, now: number): Promise<AccountSession | undefined>;
  delete(tokenHash: string): Promise<void>;
  /** Ends every session of one account (sign out everywhere, a password reset). */
  deleteAllOf(userId: string): Promise<void>;
  /** Drops expired rows; returns how many. */
  prune(now: number): Promise<number>;
}

export function createAccountSessionRepository({ db }: StoreContext): AccountSessionRepository {
  return {
    async create(session) {
      await db
        .insertInto('account_sessions')
        .values({
          token_hash: session.tokenHash,
          user_id: session.userId,
          csrf_token: session.csrfToken,
          client_ip: session.clientIp,
          created_at: session.createdAt,
          expires_at: session.expiresAt,
        })
        .execute();
    },

    async find(tokenHash, now) {
      const row = await db.selectFrom('account_sessions').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
      if (!row) return undefined;
      return {
        tokenHash: row.token_hash,
        userId: row.user_id,
        csrfToken: row.csrf_token,
        clientIp: row.client_ip,
        createdAt: Number(row.created_at),
        expiresAt: Number(row.expires_at),
      };
    },

    async delete(tokenHash) {
      await db.deleteFrom('account_sessions').where('token_hash', '=', tokenHash).execute();
    },

    async deleteAllOf(userId) {
      await db.deleteFrom('account_sessions').where('user_id', '=', userId).execute();
    },

    async prune(now) {
      const result = await db.deleteFrom('account_sessions').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
