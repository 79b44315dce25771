import { usageError } from '../cli-error.mjs';
import { formatTable } from '../format-table.mjs';
import { defined, number, required } from '../option-values.mjs';

/** Users, plans, subscriptions and redemption codes (issue 15), over the admin API. */

/** @param {string[]} positionals @param {string} what */
function first(positionals, what) {
  const value = positionals[0];
  if (value === undefined || value === '') throw usageError(`name the ${what}`);
  return encodeURIComponent(value);
}

/** @type {import('../command.mjs').Noun} */
export const userCommands = {
  summary: 'accounts (users) and their wallets',
  verbs: {
    list: {
      usage: 'user list',
      summary: 'list users with their wallets',
      options: {},
      async run({ client }) {
        const { data } = await client.request('GET', '/users');
        return {
          json: data,
          text: formatTable(
            ['ID', 'NAME', 'EMAIL', 'ENABLED', 'WALLET', 'SPENT'],
            data.map((/** @type {any} */ user) => [user.id, user.name, user.email ?? '', user.enabled ? 'yes' : 'no', `$${user.balance}`, `$${user.spent}`]),
          ),
        };
      },
    },
    create: {
      usage: 'user create <name> [--email ADDRESS] [--password TEXT] [--balance USD]',
      summary: 'create a user (an account that owns keys and a wallet)',
      options: { email: { type: 'string' }, password: { type: 'string' }, balance: { type: 'string' } },
      async run({ client, values, positionals }) {
        const user = await client.request(
          'POST',
          '/users',
          defined({ name: decodeURIComponent(first(positionals, 'user')), email: values.email, password: values.password, balance: number(values, 'balance') }),
        );
        return { json: user, text: `Created user ${user.name} (${user.id}) with a wallet of $${user.balance}.\n` };
      },
    },
    topup: {
      usage: 'user topup <id|name> --amount USD',
      summary: 'add a signed amount to the wallet (atomic)',
      options: { amount: { type: 'string' } },
      async run({ client, values, positionals }) {
        const amount = number(values, 'amount');
        if (amount === undefined) throw usageError('--amount is required');
        const user = await client.request('PATCH', `/users/${first(positionals, 'user')}`, { balanceDelta: amount });
        return { json: user, text: `Wallet of ${user.name} is now $${user.balance}.\n` };
      },
    },
  },
};

/** @type {import('../command.mjs').Noun} */
export const planCommands = {
  summary: 'subscription plans',
  verbs: {
    list: {
      usage: 'plan list',
      summary: 'list plans',
      options: {},
      async run({ client }) {
        const { data } = await client.request('GET', '/plans');
        return {
          json: data,
          text: formatTable(
            ['ID', 'NAME', 'GROUP', 'DAYS', 'DAILY', 'WEEKLY', 'MONTHLY', 'TOTAL', 'PRICE'],
            data.map((/** @type {any} */ plan) => [
              plan.id,
              plan.name,
              plan.group,
              String(plan.durationDays),
              ...['daily', 'weekly', 'monthly', 'total'].map((window) => (plan.quota[window] === undefined ? '-' : `$${plan.quota[window]}`)),
              plan.price === null ? '-' : `$${plan.price}`,
            ]),
          ),
        };
      },
    },
    create: {
      usage: 'plan create <name> --group GROUP --days N [--daily USD] [--weekly USD] [--monthly USD] [--total USD] [--price USD] [--description TEXT]',
      summary: 'create a plan: access to a group for N days within USD quotas',
      options: {
        group: { type: 'string' },
        days: { type: 'string' },
        daily: { type: 'string' },
        weekly: { type: 'string' },
        monthly: { type: 'string' },
        total: { type: 'string' },
        price: { type: 'string' },
        description: { type: 'string' },
      },
      async run({ client, values, positionals }) {
        const plan = await client.request(
          'POST',
          '/plans',
          defined({
            name: decodeURIComponent(first(positionals, 'plan')),
            group: required(values, 'group'),
            durationDays: number(values, 'days') ?? required(values, 'days'),
            quota: defined({
              daily: number(values, 'daily'),
              weekly: number(values, 'weekly'),
              monthly: number(values, 'monthly'),
              total: number(values, 'total'),
            }),
            price: number(values, 'price'),
            description: values.description,
          }),
        );
        return { json: plan, text: `Created plan ${plan.name} (${plan.id}) for group ${plan.group}.\n` };
      },
    },
  },
};

/** @type {import('../command.mjs').Noun} */
export const subscriptionCommands = {
  summary: "users' subscriptions to plans",
  verbs: {
    list: {
      usage: 'subscription list [--user ID|NAME] [--status active|suspended|expired]',
      summary: 'list subscriptions with their usage',
      options: { user: { type: 'string' }, status: { type: 'string' } },
      async run({ client, values }) {
        const query = new URLSearchParams(defined({ user: values.user, status: values.status }));
        const { data } = await client.request('GET', `/subscriptions${query.size > 0 ? `?${query}` : ''}`);
        return {
          json: data,
          text: formatTable(
            ['ID', 'USER', 'PLAN', 'GROUP', 'STATUS', 'EXPIRES', 'USED TODAY', 'USED TOTAL'],
            data.map((/** @type {any} */ s) => [
              s.id,
              s.userName ?? s.user,
              s.planName ?? s.plan,
              s.group ?? '',
              s.status,
              s.expiresAt,
              `$${s.usage.daily}`,
              `$${s.usage.total}`,
            ]),
          ),
        };
      },
    },
    create: {
      usage: 'subscription create --user ID|NAME --plan ID|NAME [--starts ISO-DATE] [--expires ISO-DATE]',
      summary: "grant a plan to a user (default: from now for the plan's duration)",
      options: { user: { type: 'string' }, plan: { type: 'string' }, starts: { type: 'string' }, expires: { type: 'string' } },
      async run({ client, values }) {
        const subscription = await client.request(
          'POST',
          '/subscriptions',
          defined({ user: required(values, 'user'), plan: required(values, 'plan'), startsAt: values.starts, expiresAt: values.expires }),
        );
        return {
          json: subscription,
          text: `Subscribed ${subscription.userName} to ${subscription.planName} until ${subscription.expiresAt} (${subscription.id}).\n`,
        };
      },
    },
    suspend: {
      usage: 'subscription suspend <id>',
      summary: 'suspend a subscription (requests are refused until resumed)',
      options: {},
      async run({ client, positionals }) {
        const subscription = await client.request('PATCH', `/subscriptions/${first(positionals, 'subscription')}`, { status: 'suspended' });
        return { json: subscription, text: `Suspended ${subscription.id}.\n` };
      },
    },
    resume: {
      usage: 'subscription resume <id>',
      summary: 'make a suspended subscription active again',
      options: {},
      async run({ client, positionals }) {
        const subscription = await client.request('PATCH', `/subscriptions/${first(positionals, 'subscription')}`, { status: 'active' });
        return { json: subscription, text: `Resumed ${subscription.id} (${subscription.status}).\n` };
      },
    },
  },
};

/** @type {import('../command.mjs').Noun} */
export const codeCommands = {
  summary: 'redemption codes (balance or subscription)',
  verbs: {
    create: {
      usage: 'code create (--amount USD | --plan ID|NAME) [--count N] [--expires ISO-DATE]',
      summary: 'create single-use codes and print them (shown only this once)',
      options: { amount: { type: 'string' }, plan: { type: 'string' }, count: { type: 'string' }, expires: { type: 'string' } },
      async run({ client, values }) {
        if ((values.amount === undefined) === (values.plan === undefined))
          throw usageError('give either --amount USD (a balance code) or --plan (a subscription code)');
        const body = defined({
          kind: values.plan === undefined ? 'balance' : 'subscription',
          amount: number(values, 'amount'),
          plan: values.plan,
          count: number(values, 'count'),
          expiresAt: values.expires,
        });
        const { codes } = await client.request('POST', '/redemption-codes', body);
        return { json: { codes }, text: `${codes.join('\n')}\n\nThese codes are shown only once; store them now.\n` };
      },
    },
    list: {
      usage: 'code list',
      summary: 'list codes by state (the codes themselves are never shown again)',
      options: {},
      async run({ client }) {
        const { data } = await client.request('GET', '/redemption-codes');
        return {
          json: data,
          text: formatTable(
            ['ID', 'KIND', 'VALUE', 'STATE', 'USED BY', 'EXPIRES'],
            data.map((/** @type {any} */ code) => [
              code.id,
              code.kind,
              code.kind === 'balance' ? `$${code.amount}` : (code.planName ?? code.plan),
              code.state,
              code.usedBy?.user ?? code.usedBy?.key ?? '',
              code.expiresAt ?? 'never',
            ]),
          ),
        };
      },
    },
  },
};
