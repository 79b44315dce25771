import { readFileSync } from 'node:fs';
import { formatTable } from '../format-table.mjs';
import { usageError } from '../cli-error.mjs';
import { defined, list, number, pairs, required } from '../option-values.mjs';
import { resolveRecord } from '../resolve-record.mjs';

/** @type {import('../command.mjs').Noun} */
export const channelCommands = {
  summary: 'upstream providers and the models they serve',
  verbs: {
    list: {
      usage: 'channel list',
      summary: 'list channels (secrets masked) with their health',
      options: {},
      async run({ client }) {
        const { data } = await client.request('GET', '/channels');
        return {
          json: data,
          text: formatTable(
            ['ID', 'NAME', 'PROVIDER', 'MODELS', 'GROUPS', 'PRIORITY', 'WEIGHT', 'ENABLED', 'HEALTH'],
            data.map((/** @type {any} */ channel) => [
              channel.id,
              channel.name,
              channel.provider,
              channel.models.join(','),
              channel.groups.join(','),
              channel.priority,
              channel.weight,
              channel.enabled ? 'yes' : 'no',
              channel.health ? healthText(channel.health) : '',
            ]),
          ),
        };
      },
    },
    create: {
      usage:
        'channel create --name NAME --provider openai|anthropic|gemini|azure|vertex|bedrock [--base-url URL] --api-key SECRET|--api-key-file PATH --models a,b [--region R] [--project P] [--api-version V] [--groups default,…] [--priority N] [--weight N] [--map public=upstream,…] [--supports-responses] [--disabled]',
      summary: 'add a channel (repeat --api-key to rotate among several secrets)',
      options: {
        name: { type: 'string' },
        provider: { type: 'string' },
        'base-url': { type: 'string' },
        'api-key': { type: 'string', multiple: true },
        'api-key-file': { type: 'string', multiple: true },
        region: { type: 'string' },
        project: { type: 'string' },
        'api-version': { type: 'string' },
        models: { type: 'string' },
        groups: { type: 'string' },
        priority: { type: 'string' },
        weight: { type: 'string' },
        map: { type: 'string' },
        'supports-responses': { type: 'boolean' },
        disabled: { type: 'boolean' },
      },
      async run({ client, values }) {
        // A Vertex service-account JSON is easier to pass as a file than on the command line.
        const files = /** @type {string[] | undefined} */ (values['api-key-file']);
        const secrets = [.../** @type {string[]} */ (values['api-key'] ?? []), ...(files ?? []).map((path) => readFileSync(path, 'utf8').trim())];
        const channel = await client.request(
          'POST',
          '/channels',
          defined({
            name: required(values, 'name'),
            provider: required(values, 'provider'),
            // Vertex and Bedrock derive the address from --region.
            baseUrl: values['base-url'],
            region: values.region,
            project: values.project,
            apiVersion: values['api-version'],
            ...(secrets.length > 1 ? { apiKeys: secrets } : { apiKey: secrets[0] }),
            models: list(required(values, 'models')),
            groups: list(values.groups) ?? ['default'],
            priority: number(values, 'priority'),
            weight: number(values, 'weight'),
            modelMap: pairs(values, 'map'),
            supportsResponses: values['supports-responses'],
            enabled: values.disabled ? false : undefined,
          }),
        );
        return {
          json: channel,
          text: `Created channel ${channel.name} (${channel.id}) serving ${channel.models.join(', ')} to ${channel.groups.join(', ')}.\n`,
        };
      },
    },
    update: {
      usage:
        'channel update <id|name> [--name NAME] [--base-url URL] [--api-key SECRET …] [--models a,b] [--groups a,b] [--priority N] [--weight N] [--map public=upstream,…] [--supports-responses true|false]',
      summary: 'change a channel; only the options given change',
      options: {
        name: { type: 'string' },
        'base-url': { type: 'string' },
        'api-key': { type: 'string', multiple: true },
        models: { type: 'string' },
        groups: { type: 'string' },
        priority: { type: 'string' },
        weight: { type: 'string' },
        map: { type: 'string' },
        'supports-responses': { type: 'string' },
      },
      async run({ client, values, positionals }) {
        const channel = await resolveRecord(client, 'channels', positionals[0]);
        const secrets = /** @type {string[] | undefined} */ (values['api-key']);
        const patch = defined({
          name: values.name,
          baseUrl: values['base-url'],
          ...(secrets === undefined ? {} : secrets.length > 1 ? { apiKeys: secrets } : { apiKey: secrets[0] }),
          models: list(values.models),
          groups: list(values.groups),
          priority: number(values, 'priority'),
          weight: number(values, 'weight'),
          modelMap: pairs(values, 'map'),
          supportsResponses: yesNo(values, 'supports-responses'),
        });
        if (Object.keys(patch).length === 0) throw usageError('nothing to change: give at least one option, e.g. --priority 2');
        const updated = await client.request('PATCH', `/channels/${encodeURIComponent(channel.id)}`, patch);
        return { json: updated, text: `Updated channel ${updated.name} (${updated.id}): ${Object.keys(patch).join(', ')}.\n` };
      },
    },
    enable: {
      usage: 'channel enable <id|name>',
      summary: 'let the router use a channel again',
      options: {},
      run: ({ client, positionals }) => setEnabled(client, positionals[0], true),
    },
    disable: {
      usage: 'channel disable <id|name>',
      summary: 'stop routing to a channel (kept, with its secrets and history)',
      options: {},
      run: ({ client, positionals }) => setEnabled(client, positionals[0], false),
    },
    delete: {
      usage: 'channel delete <id|name>',
      summary: 'delete a channel',
      options: {},
      async run({ client, positionals }) {
        const channel = await resolveRecord(client, 'channels', positionals[0]);
        await client.request('DELETE', `/channels/${encodeURIComponent(channel.id)}`);
        return { json: { deleted: channel.id }, text: `Deleted channel ${channel.name} (${channel.id}).\n` };
      },
    },
    test: {
      usage: 'channel test <id|name> [--model MODEL]',
      summary: 'send one small request through a channel; exits 1 when it fails',
      options: { model: { type: 'string' } },
      async run({ client, values, positionals }) {
        const channel = await resolveRecord(client, 'channels', positionals[0]);
        const result = await client.request('POST', `/channels/${encodeURIComponent(channel.id)}/test`, defined({ model: values.model }));
        const outcome = result.ok
          ? `ok: ${channel.name} answered ${result.status} for ${result.model} in ${result.latencyMs} ms\n`
          : `failed: ${channel.name} for ${result.model}: ${result.status ?? 'no answer'} ${result.error?.code ?? ''}: ${result.error?.message ?? ''}\n`;
        return { json: result, text: outcome, exitCode: result.ok ? 0 : 1 };
      },
    },
  },
};

/**
 * @param {{ request: (method: string, path: string, body?: unknown) => Promise<any> }} client
 * @param {string | undefined} reference
 * @param {boolean} enabled
 */
async function setEnabled(client, reference, enabled) {
  const channel = await resolveRecord(client, 'channels', reference);
  const updated = await client.request('PATCH', `/channels/${encodeURIComponent(channel.id)}`, { enabled });
  return { json: updated, text: `${enabled ? 'Enabled' : 'Disabled'} channel ${updated.name} (${updated.id}).\n` };
}

/** @param {Record<string, unknown>} values @param {string} name @returns {boolean | undefined} */
function yesNo(values, name) {
  const value = values[name];
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'yes') return true;
  if (value === 'false' || value === 'no') return false;
  throw usageError(`--${name} takes true or false, got "${String(value)}"`);
}

/** "failing: 0/5 ok in 5 min (ECONNREFUSED)". @param {any} health */
function healthText(health) {
  const status = health.status ?? health.state;
  return health.reason ? `${status}: ${health.reason}` : status;
}
