import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { NotificationEvent, NotificationRule } from '../domain/notification.ts';
import type { NewDelivery } from '../store/repositories/notification-outbox-repository.ts';
import type { Store } from '../store/store.ts';
import { EVENT_DEFAULTS, passesThreshold, RULE_MESSAGES_PER_HOUR } from './event-defaults.ts';

const HOUR = 3_600_000;
/** How often an instance re-reads the rules another instance may have changed. */
const RULES_REFRESH_MS = 30_000;

/**
 * What happened, for `emitNotification`: `subject` names what the event is about (a wallet, a key,
 * a channel, an order), so one subject alerts once per repeat window; `userId` is the account it
 * concerns (its holder's own rules and `account` rules reach them); `value` is what rules'
 * thresholds are compared with (micro-USD, a ratio, days, × usual), when the event has one. The
 * rest of `data` is the message's `data`.
 */
export interface NotificationData extends Record<string, unknown> {
  subject: string;
  userId?: string | null;
}

/** The function other modules call where an event happens; it never throws and never waits on delivery. */
export type EmitNotification = (event: NotificationEvent, data: NotificationData, value?: number) => Promise<void>;

export interface Notifier {
  emitNotification: EmitNotification;
  /** Re-reads the rules now (after an admin or portal change on this instance). */
  reloadRules(): Promise<void>;
  /** The widest threshold any enabled rule sets for an event (its default when a rule leaves it unset): what a scan must look past. */
  widestThreshold(event: NotificationEvent): number | undefined;
  hasRules(event: NotificationEvent): boolean;
  /** The measuring windows (seconds) the rules of a windowed event ask for: a scan measures each once. */
  windowsFor(event: NotificationEvent): number[];
}

export interface NotifierDeps {
  store: Pick<Store, 'notifications' | 'outbox' | 'users'>;
  now: () => number;
  logger: Logger;
  /** Told when a message was queued, so the dispatcher can send at once instead of at its next poll. */
  queued?: () => void;
}

/**
 * Turns events into queued messages: every enabled rule for the event whose threshold the value
 * passes (an account holder's rules only for their own account) claims the subject for its repeat
 * window and one of its hourly messages in the store, then queues one message per channel in the
 * outbox. Claims are single statements, so instances racing on one event queue it once.
 */
export function createNotifier(deps: NotifierDeps): Notifier {
  let rules: NotificationRule[] = [];
  let loadedAt = Number.NEGATIVE_INFINITY;
  // Subjects this instance already claimed (or lost) until then: a low wallet charged on every
  // request asks the database once per window, not once per request.
  const silenced = new Map<string, number>();

  const reloadRules = async () => {
    rules = (await deps.store.notifications.listRules()).filter((rule) => rule.enabled);
    loadedAt = deps.now();
  };
  const currentRules = async () => {
    if (deps.now() - loadedAt >= RULES_REFRESH_MS) await reloadRules();
    return rules;
  };

  const emitNotification: EmitNotification = async (event, data, value) => {
    try {
      const now = deps.now();
      const matching = (await currentRules()).filter((rule) => rule.event === event && reaches(rule, data) && passesThreshold(event, rule.threshold, value));
      const deliveries: NewDelivery[] = [];
      for (const rule of matching) deliveries.push(...(await queueFor(rule, event, data, now)));
      if (deliveries.length === 0) return;
      await deps.store.outbox.enqueue(deliveries, now);
      deps.queued?.();
    } catch (error) {
      deps.logger.error({ err: error, event }, 'could not queue a notification');
    }
  };

  const queueFor = async (rule: NotificationRule, event: NotificationEvent, data: NotificationData, now: number): Promise<NewDelivery[]> => {
    const subjectKey = `${rule.id}\u0000${event}:${data.subject}`;
    if ((silenced.get(subjectKey) ?? 0) > now) return [];
    const repeatMs = EVENT_DEFAULTS[event].repeatMs;
    silenced.set(subjectKey, now + repeatMs);
    if (silenced.size > 10_000) pruneSilenced(silenced, now);
    if (!(await deps.store.notifications.claim(rule.id, `${event}:${data.subject}`, now, repeatMs, 1))) return [];
    if (!(await deps.store.notifications.claim(rule.id, 'hourly', now, HOUR, RULE_MESSAGES_PER_HOUR))) {
      deps.logger.warn({ ruleId: rule.id, event }, `notification rule ${rule.id} reached ${RULE_MESSAGES_PER_HOUR} messages this hour; dropped one`);
      return [];
    }
    const recipient = rule.audience === 'account' && rule.ownerUserId === null ? await holderEmail(data.userId) : null;
    const channels = await deps.store.notifications.listChannels(rule.ownerUserId);
    const occurredAt = new Date(now).toISOString();
    return (
      channels
        .filter((channel) => rule.channels.includes(channel.id))
        // An operator's rule for the account holder reaches them by e-mail only: the operator's chat rooms are not theirs.
        .filter((channel) => !(rule.audience === 'account' && rule.ownerUserId === null) || (channel.type === 'email' && recipient !== null))
        .map((channel) => {
          const id = `ntf_${randomBytes(12).toString('base64url')}`;
          return { id, ruleId: rule.id, channelId: channel.id, event, payload: JSON.stringify({ id, event, occurredAt, data }), recipient };
        })
    );
  };

  const holderEmail = async (userId: string | null | undefined): Promise<string | null> => {
    if (!userId) return null;
    return (await deps.store.users.find(userId))?.email ?? null;
  };

  return {
    emitNotification,
    reloadRules,
    widestThreshold(event) {
      const defaults = EVENT_DEFAULTS[event];
      const values = rules.filter((rule) => rule.event === event).map((rule) => rule.threshold ?? defaults.threshold ?? 0);
      if (values.length === 0) return undefined;
      return defaults.kind === 'below' ? Math.max(...values) : Math.min(...values);
    },
    hasRules: (event) => rules.some((rule) => rule.event === event),
    windowsFor: (event) => [...new Set(rules.filter((rule) => rule.event === event).map((rule) => windowOf(rule)))],
  };
}

function windowOf(rule: NotificationRule): number {
  return rule.windowSeconds ?? EVENT_DEFAULTS[rule.event].windowSeconds ?? 0;
}

/**
 * An account holder's rule hears only about their own account; an `account` rule needs one; a
 * measurement over a window reaches only the rules measuring over that window.
 */
function reaches(rule: NotificationRule, data: NotificationData): boolean {
  if (typeof data.windowSeconds === 'number' && data.windowSeconds !== windowOf(rule)) return false;
  if (rule.ownerUserId !== null) return data.userId === rule.ownerUserId;
  return rule.audience === 'operator' || Boolean(data.userId);
}

function pruneSilenced(silenced: Map<string, number>, now: number): void {
  for (const [key, until] of silenced) if (until <= now) silenced.delete(key);
}
