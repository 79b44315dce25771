import { formatTable } from '../format-table.mjs';
import { defined, list, number, required } from '../option-values.mjs';
import { resolveRecord } from '../resolve-record.mjs';

/** @type {import('../command.mjs').Noun} */
export const keyCommands = {
  summary: 'client API keys',
  verbs: {
    list: {
      usage: 'key list',
      summary: 'list keys (secrets are never shown again)',
      options: {},
      async run({ client }) {
        const { data } = await client.request('GET', '/keys');
        return {
          json: data,
          text: formatTable(
            ['ID', 'NAME', 'GROUP', 'KEY', 'ENABLED', 'EXPIRES', 'BALANCE', 'SPENT'],
            data.map((/** @type {any} */ key) => [
              key.id,
              key.name,
              key.group,
              key.keyHint,
              key.enabled ? 'yes' : 'no',
              key.expiresAt ?? 'never',
              key.balance === null ? 'unlimited' : `$${key.balance}`,
              `$${key.spent}`,
            ]),
          ),
        };
      },
    },
    create: {
      usage: 'key create --name NAME [--group default] [--user ID|NAME] [--expires ISO-DATE] [--balance USD] [--models a,b] [--ips 10.0.0.0/8,…]',
      summary: 'create a key and print its secret (shown only this once)',
      options: {
        name: { type: 'string' },
        group: { type: 'string' },
        user: { type: 'string' },
        expires: { type: 'string' },
        balance: { type: 'string' },
        quota: { type: 'string' }, // the older name of --balance
        models: { type: 'string' },
        ips: { type: 'string' },
      },
      async run({ client, values }) {
        const key = await client.request(
          'POST',
          '/keys',
          defined({
            name: required(values, 'name'),
            group: values.group ?? 'default',
            user: values.user,
            expiresAt: values.expires,
            balance: number(values, 'balance') ?? number(values, 'quota'),
            allowedModels: list(values.models),
            allowedIps: list(values.ips),
          }),
        );
        return {
          json: key,
          text: [
            `Created key ${key.name} (${key.id}) in group ${key.group}.`,
            '',
            `    ${key.key}`,
            '',
            'This secret is shown only once; store it now.',
            '',
          ].join('\n'),
        };
      },
    },
    revoke: {
      usage: 'key revoke <id|name> [--disable]',
      summary: 'delete a key (or only disable it with --disable); it stops working at once',
      options: { disable: { type: 'boolean' } },
      async run({ client, values, positionals }) {
        const key = await resolveRecord(client, 'keys', positionals[0]);
        if (values.disable) {
          const updated = await client.request('PATCH', `/keys/${encodeURIComponent(key.id)}`, { enabled: false });
          return { json: updated, text: `Disabled key ${key.name} (${key.id}).\n` };
        }
        await client.request('DELETE', `/keys/${encodeURIComponent(key.id)}`);
        return { json: { deleted: key.id }, text: `Revoked key ${key.name} (${key.id}).\n` };
      },
    },
  },
};
