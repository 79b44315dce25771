import { CliError, usageError } from './cli-error.mjs';

/**
 * Finds a channel or key by id or by name, so `key revoke alice` works as well as
 * `key revoke key_…`. Names are unique per kind in the store.
 * @param {{ request: (method: string, path: string, body?: unknown) => Promise<any> }} client
 * @param {'channels' | 'keys'} kind
 * @param {string | undefined} reference
 * @returns {Promise<any>}
 */
export async function resolveRecord(client, kind, reference) {
  const singular = kind === 'keys' ? 'key' : 'channel';
  if (!reference) throw usageError(`give the ${singular}'s id or name`);
  const { data } = await client.request('GET', `/${kind}`);
  const found =
    data.find((/** @type {{ id: string }} */ record) => record.id === reference) ??
    data.find((/** @type {{ name: string }} */ record) => record.name === reference);
  if (!found) throw new CliError(`No ${singular} with the id or name "${reference}" exists; see \`switchyard ${singular} list\`.`);
  return found;
}
