import { z } from 'zod';
import { ADMIN_ROLES } from '../domain/admin.ts';
import { NOTIFICATION_CHANNEL_TYPES, NOTIFICATION_EVENTS } from '../domain/notification.ts';
import { email, entityName, httpUrl, instant, secret, wholeNumber } from '../schemas/field-rules.ts';

const recipients = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => value.split(',').every((part) => email.safeParse(part.trim()).success), 'must be e-mail addresses separated by commas');

/** `POST /api/admin/notification-channels` (and the portal's): what each type needs is checked after the shape. */
export const notificationChannelSchema = z
  .strictObject({
    type: z.enum(NOTIFICATION_CHANNEL_TYPES),
    name: entityName,
    url: httpUrl.optional(),
    secret: secret.optional(),
    to: z.string().trim().min(1).max(2000).optional(),
    /** E-mail only: every enabled admin holding one of these roles receives it too (looked up at send time). */
    roles: z.array(z.enum(ADMIN_ROLES)).min(1).max(ADMIN_ROLES.length).optional(),
  })
  .superRefine((input, context) => {
    const need = (field: 'url' | 'secret' | 'to', why: string) => {
      if (input[field] === undefined) context.addIssue({ code: 'custom', path: [field], message: `is required for ${input.type} channels (${why})` });
    };
    if (['webhook', 'slack', 'feishu', 'dingtalk', 'wecom'].includes(input.type)) need('url', 'the webhook address');
    if (input.type === 'telegram') {
      need('secret', 'the bot token');
      need('to', 'the chat id');
    }
    if (input.roles !== undefined && input.type !== 'email') context.addIssue({ code: 'custom', path: ['roles'], message: 'is for email channels only' });
    if (input.type === 'email' && input.to !== undefined && !recipients.safeParse(input.to).success) {
      context.addIssue({ code: 'custom', path: ['to'], message: 'must be e-mail addresses separated by commas' });
    }
  });

/** `POST /api/admin/notification-rules`. */
export const notificationRuleSchema = z.strictObject({
  event: z.enum(NOTIFICATION_EVENTS),
  threshold: z.number('must be a number').finite().nonnegative('must not be negative').max(1_000_000_000).nullable().optional(),
  windowSeconds: wholeNumber(60, 86_400).nullable().optional(),
  channels: z.array(z.string().min(1).max(100)).min(1, 'name at least one channel').max(20),
  audience: z.enum(['operator', 'account']).default('operator'),
  enabled: z.boolean().default(true),
});

export const deliveryQuerySchema = z.strictObject({
  status: z.enum(['pending', 'sent', 'dead']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** `POST /api/admin/announcements`: audience `all`, `group:<name>` or `account:<user id or name>`. */
export const announcementSchema = z.strictObject({
  title: z.string().trim().min(1, 'must not be empty').max(200),
  body: z.string().trim().min(1, 'must not be empty').max(10_000),
  audience: z
    .string()
    .trim()
    .regex(/^(all|group:[A-Za-z0-9_.-]{1,100}|account:[^\s]{1,100})$/, 'must be "all", "group:<name>" or "account:<user id>"')
    .default('all'),
  endsAt: instant.nullable().optional(),
});

/** `statusPage` in `PATCH /api/admin/account-settings`. */
export const statusPageSchema = z.strictObject({
  enabled: z.boolean(),
  showChannelNames: z.boolean().optional(),
  title: z.string().trim().min(1).max(200).optional(),
});
