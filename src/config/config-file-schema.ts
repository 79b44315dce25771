import { z } from 'zod';
import { channelFields, checkNewChannel, groupFields, keyFields, planFields, priceFields, userFields } from '../schemas/entity-fields.ts';
import { entityName, groupName, instant } from '../schemas/field-rules.ts';

/**
 * The config file's shape. Its fields are the admin API's (src/schemas/), so a value the file
 * accepts is one the API accepts; only what is the file's own is added here: a key's literal
 * secret and its owner by name, and defaults (a plan without quotas, a key without a group).
 */

export const configGroupSchema = z.strictObject(groupFields);

export const configUserSchema = z.strictObject(userFields);

export const configPlanSchema = z.strictObject({ ...planFields, quota: planFields.quota.optional() });

export const configSubscriptionSchema = z.strictObject({
  user: entityName,
  plan: entityName,
  startsAt: instant.optional(),
  expiresAt: instant.optional(),
});

export const configChannelSchema = z.strictObject(channelFields).superRefine(checkNewChannel);

export const configKeySchema = z.strictObject({
  ...keyFields,
  /** Omitted: the default group. */
  group: groupName.optional(),
  key: z.string().refine((value) => value.startsWith('sk-') && value.length >= 20, {
    error: 'must start with "sk-" and be at least 20 characters',
  }),
  expiresAt: instant.nullable().optional(),
  /** The owning user, by name (from this file or the store). */
  user: entityName.optional(),
});

export const configPriceSchema = z.strictObject(priceFields);

export const configFileSchema = z
  .strictObject({
    groups: z.array(configGroupSchema, { error: 'must be a list' }).optional(),
    channels: z.array(configChannelSchema, { error: 'must be a list' }).optional(),
    keys: z.array(configKeySchema, { error: 'must be a list' }).optional(),
    prices: z.array(configPriceSchema, { error: 'must be a list' }).optional(),
    users: z.array(configUserSchema, { error: 'must be a list' }).optional(),
    plans: z.array(configPlanSchema, { error: 'must be a list' }).optional(),
    subscriptions: z.array(configSubscriptionSchema, { error: 'must be a list' }).optional(),
  })
  .superRefine((file, context) => {
    const unique = (kind: string, list: Array<Record<string, unknown>> | undefined, field: string) => {
      const seen = new Set<unknown>();
      list?.forEach((entry, index) => {
        const value = entry[field];
        if (seen.has(value)) {
          const shown = field === 'key' ? '' : ` ${JSON.stringify(value)}`;
          context.addIssue({ code: 'custom', path: [kind, index, field], message: `duplicate ${field}${shown}` });
        }
        seen.add(value);
      });
    };
    unique('groups', file.groups, 'name');
    unique('channels', file.channels, 'name');
    unique('keys', file.keys, 'name');
    unique('keys', file.keys, 'key');
    unique('prices', file.prices, 'model');
    unique('users', file.users, 'name');
    unique('plans', file.plans, 'name');
  });

export type ConfigFile = z.output<typeof configFileSchema>;
export type ConfigFileChannel = z.output<typeof configChannelSchema>;
export type ConfigFileKey = z.output<typeof configKeySchema>;
export type ConfigFileUser = z.output<typeof configUserSchema>;
export type ConfigFilePlan = z.output<typeof configPlanSchema>;
export type ConfigFileSubscription = z.output<typeof configSubscriptionSchema>;
