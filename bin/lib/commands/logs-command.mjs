import { formatTable } from '../format-table.mjs';
import { number } from '../option-values.mjs';

/** @type {import('../command.mjs').Verb} */
export const logsCommand = {
  usage: 'logs [--limit N] [--model MODEL] [--key KEY_ID] [--status CODE]',
  summary: 'recent requests, newest first',
  options: { limit: { type: 'string' }, model: { type: 'string' }, key: { type: 'string' }, status: { type: 'string' } },
  async run({ client, values }) {
    const query = new URLSearchParams();
    const limit = number(values, 'limit');
    const status = number(values, 'status');
    if (limit !== undefined) query.set('limit', String(limit));
    if (status !== undefined) query.set('status', String(status));
    if (values.model !== undefined) query.set('model', values.model);
    if (values.key !== undefined) query.set('key', values.key);
    const search = query.size > 0 ? `?${query}` : '';
    const { data } = await client.request('GET', `/logs${search}`);
    return {
      json: data,
      text: formatTable(
        ['TIME', 'STATUS', 'MODEL', 'KEY', 'CHANNEL', 'IN', 'OUT', 'MS', 'STREAM', 'REQUEST ID'],
        data.map((/** @type {any} */ entry) => [
          String(entry.time).replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
          entry.status,
          entry.model,
          entry.keyName,
          entry.channelName,
          entry.inputTokens,
          entry.outputTokens,
          entry.latencyMs,
          entry.stream ? 'yes' : 'no',
          entry.requestId,
        ]),
      ),
    };
  },
};
