import { formatTable } from '../format-table.mjs';
import { usageError } from '../cli-error.mjs';
import { defined, number } from '../option-values.mjs';

/** @type {import('../command.mjs').Noun} */
export const groupCommands = {
  summary: 'groups of keys that share a set of models',
  verbs: {
    list: {
      usage: 'group list',
      summary: 'list groups',
      options: {},
      async run({ client }) {
        const { data } = await client.request('GET', '/groups');
        return {
          json: data,
          text: formatTable(
            ['NAME', 'BILLING', 'MULTIPLIER', 'DESCRIPTION'],
            data.map((/** @type {any} */ group) => [group.name, group.billing, group.priceMultiplier, group.description]),
          ),
        };
      },
    },
    create: {
      usage: 'group create <name> [--description TEXT] [--multiplier N] [--billing balance|subscription|subscription_then_balance]',
      summary: 'create a group',
      options: { name: { type: 'string' }, description: { type: 'string' }, multiplier: { type: 'string' }, billing: { type: 'string' } },
      async run({ client, values, positionals }) {
        const name = positionals[0] ?? values.name;
        if (typeof name !== 'string' || name === '') throw usageError('give the group name: group create <name>');
        const group = await client.request(
          'POST',
          '/groups',
          defined({ name, description: values.description, priceMultiplier: number(values, 'multiplier'), billing: values.billing }),
        );
        return { json: group, text: `Created group ${group.name}.\n` };
      },
    },
    update: {
      usage: 'group update <name> [--rename NEW] [--description TEXT] [--multiplier N] [--billing balance|subscription|subscription_then_balance]',
      summary: 'change a group; --rename moves its keys, channels and plans to the new name',
      options: { rename: { type: 'string' }, description: { type: 'string' }, multiplier: { type: 'string' }, billing: { type: 'string' } },
      async run({ client, values, positionals }) {
        const name = positionals[0];
        if (!name) throw usageError('give the group name: group update <name> [--rename NEW] ...');
        const patch = defined({ name: values.rename, description: values.description, priceMultiplier: number(values, 'multiplier'), billing: values.billing });
        if (Object.keys(patch).length === 0) throw usageError('nothing to change: give --rename, --description, --multiplier or --billing');
        const group = await client.request('PATCH', `/groups/${encodeURIComponent(name)}`, patch);
        return { json: group, text: group.name === name ? `Updated group ${name}.\n` : `Renamed group ${name} to ${group.name}.\n` };
      },
    },
    delete: {
      usage: 'group delete <name>',
      summary: 'delete a group no key or channel uses',
      options: {},
      async run({ client, positionals }) {
        const name = positionals[0];
        if (!name) throw usageError('give the group name: group delete <name>');
        await client.request('DELETE', `/groups/${encodeURIComponent(name)}`);
        return { json: { deleted: name }, text: `Deleted group ${name}.\n` };
      },
    },
  },
};
