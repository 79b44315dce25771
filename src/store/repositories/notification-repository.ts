import { sql } from 'kysely';
import type { AdminRole } from '../../domain/admin.ts';
import type {
  NewNotificationChannel,
  NewNotificationRule,
  NotificationChannel,
  NotificationChannelType,
  NotificationEvent,
  NotificationRule,
} from '../../domain/notification.ts';
import type { NotificationChannelsTable, NotificationRulesTable } from '../notify-tables.ts';
import type { StoreContext } from '../store-context.ts';

/** Notification channels and rules, and the claims that deduplicate and rate-limit rules (issue 30). */
export interface NotificationRepository {
  /** Every channel, or only one account holder's (`ownerUserId`), or only the operator's (null). */
  listChannels(ownerUserId?: string | null): Promise<NotificationChannel[]>;
  getChannel(id: string): Promise<NotificationChannel | undefined>;
  createChannel(channel: NewNotificationChannel): Promise<NotificationChannel>;
  deleteChannel(id: string): Promise<boolean>;
  listRules(ownerUserId?: string | null): Promise<NotificationRule[]>;
  createRule(rule: NewNotificationRule): Promise<NotificationRule>;
  deleteRule(id: string): Promise<boolean>;
  /**
   * Takes one of `max` uses of `key` under a rule for `windowMs` from the first use: true when
   * taken. One statement (an upsert with a condition), so of any number of instances racing for
   * the last use exactly one gets it, and a restart forgets nothing.
   */
  claim(ruleId: string, key: string, now: number, windowMs: number, max: number): Promise<boolean>;
  /** Drops claims whose window has passed; returns how many. */
  pruneClaims(now: number): Promise<number>;
}

export function createNotificationRepository({ db, now, generateId, secretBox }: StoreContext): NotificationRepository {
  const toChannel = (row: NotificationChannelsTable): NotificationChannel => ({
    id: row.id,
    ownerUserId: row.owner_user_id,
    type: row.type as NotificationChannelType,
    name: row.name,
    // Sealed too: a Slack, DingTalk or WeCom webhook address is itself the credential.
    url: row.url === null ? null : secretBox.open(row.url),
    secret: row.secret_sealed === null ? null : secretBox.open(row.secret_sealed),
    to: row.to_address,
    roles: row.to_roles ? (row.to_roles.split(',') as AdminRole[]) : [],
    createdAt: Number(row.created_at),
  });
  const toRule = (row: NotificationRulesTable): NotificationRule => ({
    id: row.id,
    ownerUserId: row.owner_user_id,
    event: row.event as NotificationEvent,
    threshold: row.threshold === null ? null : Number(row.threshold),
    windowSeconds: row.window_seconds === null ? null : Number(row.window_seconds),
    channels: JSON.parse(row.channels) as string[],
    audience: row.audience === 'account' ? 'account' : 'operator',
    enabled: Number(row.enabled) === 1,
    createdAt: Number(row.created_at),
  });

  return {
    async listChannels(ownerUserId) {
      let query = db.selectFrom('notification_channels').selectAll().orderBy('created_at').orderBy('id');
      if (ownerUserId !== undefined) query = ownerUserId === null ? query.where('owner_user_id', 'is', null) : query.where('owner_user_id', '=', ownerUserId);
      return (await query.execute()).map(toChannel);
    },
    async getChannel(id) {
      const row = await db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toChannel(row);
    },
    async createChannel(channel) {
      const row: NotificationChannelsTable = {
        id: generateId('nch'),
        owner_user_id: channel.ownerUserId,
        type: channel.type,
        name: channel.name,
        url: channel.url === null ? null : secretBox.seal(channel.url),
        secret_sealed: channel.secret === null ? null : secretBox.seal(channel.secret),
        to_address: channel.to,
        to_roles: channel.roles?.length ? channel.roles.join(',') : null,
        created_at: now(),
      };
      await db.insertInto('notification_channels').values(row).execute();
      return toChannel(row);
    },
    async deleteChannel(id) {
      const result = await db.deleteFrom('notification_channels').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async listRules(ownerUserId) {
      let query = db.selectFrom('notification_rules').selectAll().orderBy('created_at').orderBy('id');
      if (ownerUserId !== undefined) query = ownerUserId === null ? query.where('owner_user_id', 'is', null) : query.where('owner_user_id', '=', ownerUserId);
      return (await query.execute()).map(toRule);
    },
    async createRule(rule) {
      const row: NotificationRulesTable = {
        id: generateId('nrl'),
        owner_user_id: rule.ownerUserId,
        event: rule.event,
        threshold: rule.threshold,
        window_seconds: rule.windowSeconds,
        channels: JSON.stringify(rule.channels),
        audience: rule.audience,
        enabled: rule.enabled ? 1 : 0,
        created_at: now(),
      };
      await db.insertInto('notification_rules').values(row).execute();
      return toRule(row);
    },
    async deleteRule(id) {
      const result = await db.deleteFrom('notification_rules').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async claim(ruleId, key, at, windowMs, max) {
      const until = at + windowMs;
      const expired = sql<boolean>`notification_claims.until_at <= ${at}`;
      const result = await db
        .insertInto('notification_claims')
        .values({ rule_id: ruleId, claim_key: key, count: 1, until_at: until })
        .onConflict((conflict) =>
          conflict
            .columns(['rule_id', 'claim_key'])
            .doUpdateSet({
              count: sql`case when ${expired} then 1 else notification_claims.count + 1 end`,
              until_at: sql`case when ${expired} then ${until} else notification_claims.until_at end`,
            })
            .where(sql<boolean>`${expired} or notification_claims.count < ${max}`),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async pruneClaims(at) {
      const result = await db.deleteFrom('notification_claims').where('until_at', '<=', at).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
