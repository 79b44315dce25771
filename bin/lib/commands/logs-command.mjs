import { formatTable } from '../format-table.mjs';
import { number } from '../option-values.mjs';

/** @type {import('../command.mjs').Verb} */
export const logsCommand = {
  usage: 'logs [--limit N] [--model MODEL] [--key ID|NAME] [--channel ID|NAME] [--status CODE]',
  summary: 'recent requests, newest first, with their cost and the channels tried',
  options: {
    limit: { type: 'string' },
    model: { type: 'string' },
    key: { type: 'string' },
    channel: { type: 'string' },
    status: { type: 'string' },
  },
  async run({ client, values }) {
    const query = new URLSearchParams();
    const limit = number(values, 'limit');
    const status = number(values, 'status');
    if (limit !== undefined) query.set('limit', String(limit));
    if (status !== undefined) query.set('status', String(status));
    if (values.model !== undefined) query.set('model', values.model);
    // The API takes ids or names for both.
    if (values.key !== undefined) query.set('key', values.key);
    if (values.channel !== undefined) query.set('channel', values.channel);
    const search = query.size > 0 ? `?${query}` : '';
    const { data } = await client.request('GET', `/logs${search}`);
    return {
      json: data,
      text: formatTable(
        ['TIME', 'STATUS', 'MODEL', 'KEY', 'CHANNEL', 'TRIES', 'IN', 'OUT', 'COST', 'MS', 'STREAM', 'REQUEST ID'],
        data.map((/** @type {any} */ entry) => [
          String(entry.time)
            .replace('T', ' ')
            .replace(/\.\d+Z$/, 'Z'),
          entry.status,
          entry.model,
          entry.keyName,
          entry.channelName,
          attemptsText(entry.attempts),
          entry.inputTokens,
          entry.outputTokens,
          `$${(entry.costMicros / 1_000_000).toFixed(6)}`,
          entry.latencyMs,
          entry.stream ? 'yes' : 'no',
          entry.requestId,
        ]),
      ),
    };
  },
};

/** "2: a 502, b ok" — how many channels were tried and how each ended. @param {any[] | undefined} attempts */
function attemptsText(attempts) {
  if (!attempts || attempts.length === 0) return '-';
  if (attempts.length === 1 && attempts[0].errorCode === null) return '1';
  return `${attempts.length}: ${attempts.map((attempt) => `${attempt.channelName} ${attempt.errorCode ?? attempt.status ?? 'ok'}`).join(', ')}`;
}
