import type { DeliveryStatus, NotificationDelivery } from '../../domain/notification.ts';
import type { NotificationOutboxTable } from '../notify-tables.ts';
import type { StoreContext } from '../store-context.ts';

export type NewDelivery = Pick<NotificationDelivery, 'id' | 'ruleId' | 'channelId' | 'event' | 'payload' | 'recipient'>;

/**
 * The outbox: every message waits here until a channel took it (`sent`) or it failed too often
 * (`dead`, the dead-letter list). Sending is claimed per row with a conditional update, so two
 * instances (or a leader handing over) never both send one row.
 */
export interface NotificationOutboxRepository {
  enqueue(deliveries: NewDelivery[], now: number): Promise<void>;
  /** Pending rows due at `now` and not claimed by a live sender, oldest first. */
  due(now: number, limit: number): Promise<NotificationDelivery[]>;
  /** True when this caller now owns the row until `now + leaseMs`. */
  claim(id: string, now: number, leaseMs: number): Promise<boolean>;
  markSent(id: string, now: number): Promise<void>;
  /** A failed attempt: retry at `nextAttemptAt`, or `dead` when that is null. */
  markFailed(id: string, error: string, nextAttemptAt: number | null): Promise<void>;
  list(filter: { status?: DeliveryStatus; limit: number }): Promise<NotificationDelivery[]>;
  get(id: string): Promise<NotificationDelivery | undefined>;
  /** Puts a dead row back in the queue (the console's retry); false when it is not dead. */
  revive(id: string, now: number): Promise<boolean>;
  /** Forgets sent messages created before `time` (dead ones stay until retried); returns how many. */
  pruneSentBefore(time: number): Promise<number>;
}

export function createNotificationOutboxRepository({ db }: StoreContext): NotificationOutboxRepository {
  return {
    async enqueue(deliveries, now) {
      if (deliveries.length === 0) return;
      await db
        .insertInto('notification_outbox')
        .values(
          deliveries.map((delivery) => ({
            id: delivery.id,
            rule_id: delivery.ruleId,
            channel_id: delivery.channelId,
            event: delivery.event,
            payload: delivery.payload,
            recipient: delivery.recipient,
            status: 'pending',
            attempts: 0,
            next_attempt_at: now,
            claimed_until: 0,
            last_error: null,
            created_at: now,
            sent_at: null,
          })),
        )
        .execute();
    },
    async due(now, limit) {
      const rows = await db
        .selectFrom('notification_outbox')
        .selectAll()
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where('claimed_until', '<=', now)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(toDelivery);
    },
    async claim(id, now, leaseMs) {
      const result = await db
        .updateTable('notification_outbox')
        .set({ claimed_until: now + leaseMs })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('claimed_until', '<=', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async markSent(id, now) {
      await db
        .updateTable('notification_outbox')
        .set((eb) => ({ status: 'sent', sent_at: now, attempts: eb('attempts', '+', 1), last_error: null, claimed_until: 0 }))
        .where('id', '=', id)
        .execute();
    },
    async markFailed(id, error, nextAttemptAt) {
      await db
        .updateTable('notification_outbox')
        .set((eb) => ({
          status: nextAttemptAt === null ? 'dead' : 'pending',
          attempts: eb('attempts', '+', 1),
          last_error: error.slice(0, 1000),
          next_attempt_at: nextAttemptAt ?? 0,
          claimed_until: 0,
        }))
        .where('id', '=', id)
        .execute();
    },
    async list({ status, limit }) {
      let query = db.selectFrom('notification_outbox').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
      if (status !== undefined) query = query.where('status', '=', status);
      return (await query.execute()).map(toDelivery);
    },
    async get(id) {
      const row = await db.selectFrom('notification_outbox').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toDelivery(row);
    },
    async revive(id, now) {
      const result = await db
        .updateTable('notification_outbox')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now, claimed_until: 0 })
        .where('id', '=', id)
        .where('status', '=', 'dead')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async pruneSentBefore(time) {
      const result = await db.deleteFrom('notification_outbox').where('status', '=', 'sent').where('created_at', '<', time).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

function toDelivery(row: NotificationOutboxTable): NotificationDelivery {
  return {
    id: row.id,
    ruleId: row.rule_id,
    channelId: row.channel_id,
    event: row.event,
    payload: row.payload,
    recipient: row.recipient,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    sentAt: row.sent_at === null ? null : Number(row.sent_at),
  };
}
