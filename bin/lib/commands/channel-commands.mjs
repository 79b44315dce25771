import { readFileSync } from 'node:fs';
import { formatTable } from '../format-table.mjs';
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
              channel.health?.state,
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
        const secrets = [
          .../** @type {string[]} */ (values['api-key'] ?? []),
          ...(files ?? []).map((path) => readFileSync(path, 'utf8').trim()),
        ];
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
        const result = await client.request(
          'POST',
          `/channels/${encodeURIComponent(channel.id)}/test`,
          defined({ model: values.model }),
        );
        const outcome = result.ok
          ? `ok: ${channel.name} answered ${result.status} for ${result.model} in ${result.latencyMs} ms\n`
          : `failed: ${channel.name} for ${result.model}: ${result.status ?? 'no answer'} ${result.error?.code ?? ''}: ${result.error?.message ?? ''}\n`;
        return { json: result, text: outcome, exitCode: result.ok ? 0 : 1 };
      },
    },
  },
};
