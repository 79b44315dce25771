import type { Announcement, CircuitHistoryEntry, NewAnnouncement } from '../../domain/announcement.ts';
import type { StoreContext } from '../store-context.ts';

/** The operator's notices; the audience filter is the caller's (see notify/announcements.ts). */
export interface AnnouncementRepository {
  /** Notices not ended at `now`, newest first (all of them when `now` is undefined). */
  list(now?: number): Promise<Announcement[]>;
  create(announcement: NewAnnouncement): Promise<Announcement>;
  delete(id: string): Promise<boolean>;
}

/** Circuit transitions for the status page's incidents. */
export interface CircuitHistoryRepository {
  record(entry: CircuitHistoryEntry): Promise<void>;
  /** Transitions at or after `from`, oldest first. */
  since(from: number): Promise<CircuitHistoryEntry[]>;
  pruneBefore(time: number): Promise<number>;
}

export function createAnnouncementRepository({ db, now, generateId }: StoreContext): AnnouncementRepository {
  return {
    async list(at) {
      let query = db.selectFrom('announcements').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
      if (at !== undefined) query = query.where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', at)]));
      const rows = await query.execute();
      return rows.map((row) => ({
        id: row.id,
        title: row.title,
        body: row.body,
        audience: row.audience,
        endsAt: row.ends_at === null ? null : Number(row.ends_at),
        createdAt: Number(row.created_at),
      }));
    },
    async create(announcement) {
      const row = {
        id: generateId('ann'),
        title: announcement.title,
        body: announcement.body,
        audience: announcement.audience,
        ends_at: announcement.endsAt,
        created_at: now(),
      };
      await db.insertInto('announcements').values(row).execute();
      return { ...announcement, id: row.id, createdAt: row.created_at };
    },
    async delete(id) {
      const result = await db.deleteFrom('announcements').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export function createCircuitHistoryRepository({ db, generateId }: StoreContext): CircuitHistoryRepository {
  return {
    async record(entry) {
      await db
        .insertInto('circuit_history')
        .values({ id: generateId('cir'), channel_id: entry.channelId, model: entry.model, state: entry.state, reason: entry.reason, at: entry.at })
        .execute();
    },
    async since(from) {
      const rows = await db.selectFrom('circuit_history').selectAll().where('at', '>=', from).orderBy('at').orderBy('id').execute();
      return rows.map((row) => ({
        channelId: row.channel_id,
        model: row.model,
        state: row.state === 'open' ? 'open' : 'closed',
        reason: row.reason,
        at: Number(row.at),
      }));
    },
    async pruneBefore(time) {
      const result = await db.deleteFrom('circuit_history').where('at', '<', time).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
