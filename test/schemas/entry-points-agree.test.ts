import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import {
  configChannelSchema,
  configGroupSchema,
  configKeySchema,
  configPlanSchema,
  configPriceSchema,
  configUserSchema,
} from '../../src/config/config-file-schema.ts';
import {
  channelCreateSchema,
  groupCreateSchema,
  keyCreateSchema,
  planCreateSchema,
  priceSchema,
  userCreateSchema,
} from '../../src/server/admin/admin-schemas.ts';

/**
 * The config file and the admin API state the same things, so one value must get the same
 * verdict from both (issue 12): a file that applies cleanly never holds what the API refuses,
 * and the other way round. Each case is one field changed from a valid base; the entry points'
 * own fields (the file's literal key secret, the API's required group) are filled in per side.
 */
type Case = { label: string; value: Record<string, unknown> };
type Pair = {
  entity: string;
  config: z.ZodType;
  admin: z.ZodType;
  base: Record<string, unknown>;
  configExtra?: Record<string, unknown>;
  adminExtra?: Record<string, unknown>;
  cases: Case[];
};

const PAIRS: Pair[] = [
  {
    entity: 'group',
    config: configGroupSchema,
    admin: groupCreateSchema,
    base: { name: 'team-a' },
    cases: [
      { label: 'free group (multiplier 0)', value: { priceMultiplier: 0 } },
      { label: 'negative multiplier', value: { priceMultiplier: -1 } },
      { label: 'multiplier over the bound', value: { priceMultiplier: 1e308 } },
      { label: 'name with a space', value: { name: 'team a' } },
      { label: 'unknown billing mode', value: { billing: 'free' } },
      { label: 'subscription billing', value: { billing: 'subscription' } },
      { label: 'unknown field', value: { prioirty: 1 } },
    ],
  },
  {
    entity: 'channel',
    config: configChannelSchema,
    admin: channelCreateSchema,
    base: { name: 'c1', provider: 'openai', baseUrl: 'https://api.example', apiKey: 'sk-up', models: ['m'] },
    cases: [
      { label: 'no secret', value: { apiKey: undefined } },
      { label: 'both secrets', value: { apiKeys: ['a'] } },
      { label: 'ftp address', value: { baseUrl: 'ftp://x.example' } },
      { label: 'no models', value: { models: [] } },
      { label: 'fractional priority', value: { priority: 1.5 } },
      { label: 'priority past the column', value: { priority: 2_000_000 } },
      { label: 'vertex without a project', value: { provider: 'vertex', region: 'us-east5', baseUrl: undefined } },
      { label: 'bedrock from its region', value: { provider: 'bedrock', region: 'us-east-1', baseUrl: undefined } },
      { label: 'bad region', value: { provider: 'bedrock', region: 'US East' } },
      { label: 'group with a slash', value: { groups: ['a/b'] } },
      { label: 'bad api-version', value: { apiVersion: 'yesterday' } },
    ],
  },
  {
    entity: 'key',
    config: configKeySchema,
    admin: keyCreateSchema,
    base: { name: 'k1' },
    configExtra: { key: 'sk-0123456789abcdefghij' },
    adminExtra: { group: 'default' },
    cases: [
      { label: 'negative balance', value: { balance: -1 } },
      { label: 'unlimited balance', value: { balance: null } },
      { label: 'text balance', value: { balance: '5' } },
      { label: 'bad CIDR', value: { allowedIps: ['10.0.0.0/99'] } },
      { label: 'good CIDR', value: { allowedIps: ['2001:db8::/32'] } },
      { label: 'date-only expiry', value: { expiresAt: '2030-01-01' } },
      { label: 'expiry without a zone', value: { expiresAt: '2030-01-01T00:00:00' } },
      { label: 'epoch expiry', value: { expiresAt: 1_900_000_000_000 } },
      { label: 'zero rate limit', value: { limits: { requestsPerMinute: 0 } } },
      { label: 'spend cap', value: { limits: { dailySpend: 5 } } },
    ],
  },
  {
    entity: 'price',
    config: configPriceSchema,
    admin: priceSchema,
    base: { model: 'm', input: 1, output: 2 },
    cases: [
      { label: 'negative input price', value: { input: -1 } },
      { label: 'price over the bound', value: { output: 1e9 } },
      { label: 'cache prices', value: { cacheRead: 0.1, cacheWrite: null } },
    ],
  },
  {
    entity: 'user',
    config: configUserSchema,
    admin: userCreateSchema,
    base: { name: 'ada' },
    cases: [
      { label: 'short password', value: { password: 'short' } },
      { label: 'no password', value: { password: null } },
      { label: 'not an email', value: { email: 'ada' } },
      { label: 'name with a space', value: { name: 'ada l' } },
    ],
  },
  {
    entity: 'plan',
    config: configPlanSchema,
    admin: planCreateSchema,
    base: { name: 'pro', group: 'default', durationDays: 30, quota: { daily: 1 } },
    cases: [
      { label: 'zero quota', value: { quota: { daily: 0 } } },
      { label: 'zero days', value: { durationDays: 0 } },
      { label: 'a century and more', value: { durationDays: 40_000 } },
      { label: 'unknown window', value: { quota: { hourly: 1 } } },
    ],
  },
];

function withCase(base: Record<string, unknown>, extra: Record<string, unknown> | undefined, change: Record<string, unknown>) {
  const merged: Record<string, unknown> = { ...base, ...extra, ...change };
  for (const [field, value] of Object.entries(change)) if (value === undefined) delete merged[field];
  return merged;
}

describe('the config file and the admin API agree on every field', () => {
  for (const pair of PAIRS) {
    test(`${pair.entity}: the valid base passes both`, () => {
      assert.equal(pair.config.safeParse(withCase(pair.base, pair.configExtra, {})).success, true);
      assert.equal(pair.admin.safeParse(withCase(pair.base, pair.adminExtra, {})).success, true);
    });
    for (const { label, value } of pair.cases) {
      test(`${pair.entity}: ${label}`, () => {
        const inFile = pair.config.safeParse(withCase(pair.base, pair.configExtra, value));
        const inApi = pair.admin.safeParse(withCase(pair.base, pair.adminExtra, value));
        assert.equal(inFile.success, inApi.success, `file ${inFile.success ? 'accepts' : 'refuses'}, API ${inApi.success ? 'accepts' : 'refuses'}`);
        if (!inFile.success && !inApi.success) {
          assert.deepEqual(inFile.error.issues[0]?.path, inApi.error.issues[0]?.path, 'both name the same field');
          assert.equal(inFile.error.issues[0]?.message, inApi.error.issues[0]?.message, 'with the same words');
        }
      });
    }
  }
});
