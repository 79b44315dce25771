import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { ChannelsTable, DatabaseSchema } from '../database-schema.ts';
import { requireGroupNames } from '../require-group-names.ts';
import type { SecretBox } from '../secret-box.ts';
import type { Channel, NewChannel } from '../../domain/channel.ts';
import type { ChannelRepository } from '../store.ts';
import { StoreConflictError } from '../store.ts';
import type { StoreContext } from '../store-context.ts';
import { translateConstraintError } from '../translate-constraint-error.ts';
import { ensureSecretCheck } from '../secret-check.ts';

type Reader = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;
/** toColumns fills every column when given a whole NewChannel. */
type NewChannelColumns = Omit<Insertable<ChannelsTable>, 'id' | 'created_at' | 'updated_at'>;

/** Channels may only name existing groups (StoreConflictError, field `groups`). */
export function createChannelRepository({ db, now, generateId, secretBox }: StoreContext): ChannelRepository {
  const conflictMessages = (name: string | undefined) => ({
    unique: { name: { field: 'name', message: `a channel named "${name}" already exists` } },
    foreignKey: { field: 'groups', message: 'the channel names a group that does not exist' },
  });

  return {
    async list() {
      return readChannels(db, secretBox);
    },

    async get(id) {
      const [channel] = await readChannels(db, secretBox, id);
      return channel;
    },

    async create(channel) {
      if (channel.name.trim() === '') throw new StoreConflictError('a channel needs a name', 'name');
      const time = now();
      const id = generateId('ch');
      const groups = unique(channel.groups);
      try {
        await db.transaction().execute(async (transaction) => {
          await requireGroupNames(transaction, groups, 'groups');
          await ensureSecretCheck(transaction, secretBox, now);
          await transaction
            .insertInto('channels')
            .values({ id, ...(toColumns(channel, secretBox) as NewChannelColumns), created_at: time, updated_at: time })
            .execute();
          await writeGroups(transaction, id, groups);
        });
      } catch (error) {
        throw translateConstraintError(error, conflictMessages(channel.name));
      }
      return { id, ...channel, apiKeys: [...channel.apiKeys], groups, createdAt: time, updatedAt: time };
    },

    async update(id, patch) {
      try {
        return await db.transaction().execute(async (transaction) => {
          const exists = await transaction.selectFrom('channels').select('id').where('id', '=', id).executeTakeFirst();
          if (exists === undefined) return undefined;
          if (patch.name !== undefined && patch.name.trim() === '') {
            throw new StoreConflictError('a channel needs a name', 'name');
          }
          if (patch.apiKeys !== undefined) await ensureSecretCheck(transaction, secretBox, now);
          const changes: Updateable<ChannelsTable> = { ...toColumns(patch, secretBox), updated_at: now() };
          await transaction.updateTable('channels').set(changes).where('id', '=', id).execute();
          if (patch.groups !== undefined) {
            const groups = unique(patch.groups);
            await requireGroupNames(transaction, groups, 'groups');
            await transaction.deleteFrom('channel_groups').where('channel_id', '=', id).execute();
            await writeGroups(transaction, id, groups);
          }
          const [channel] = await readChannels(transaction, secretBox, id);
          return channel;
        });
      } catch (error) {
        throw translateConstraintError(error, conflictMessages(patch.name));
      }
    },

    async delete(id) {
      // channel_groups rows go with it (ON DELETE CASCADE).
      const result = await db.deleteFrom('channels').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

async function readChannels(db: Reader, secretBox: SecretBox, id?: string): Promise<Channel[]> {
  let channels = db.selectFrom('channels').selectAll().orderBy('name');
  let memberships = db.selectFrom('channel_groups').selectAll().orderBy('channel_id').orderBy('position');
  if (id !== undefined) {
    channels = channels.where('id', '=', id);
    memberships = memberships.where('channel_id', '=', id);
  }
  const [rows, groupRows] = await Promise.all([channels.execute(), memberships.execute()]);
  const groupsByChannel = new Map<string, string[]>();
  for (const row of groupRows) {
    const list = groupsByChannel.get(row.channel_id);
    if (list) list.push(row.group_name);
    else groupsByChannel.set(row.channel_id, [row.group_name]);
  }
  return rows.map((row) => toChannel(row, groupsByChannel.get(row.id) ?? [], secretBox));
}

async function writeGroups(transaction: Transaction<DatabaseSchema>, channelId: string, groups: string[]) {
  if (groups.length === 0) return;
  await transaction
    .insertInto('channel_groups')
    .values(groups.map((group_name, position) => ({ channel_id: channelId, group_name, position })))
    .execute();
}

function toColumns(channel: Partial<NewChannel>, secretBox: SecretBox): Updateable<ChannelsTable> {
  const columns: Updateable<ChannelsTable> = {};
  if (channel.name !== undefined) columns.name = channel.name;
  if (channel.provider !== undefined) columns.provider = channel.provider;
  if (channel.baseUrl !== undefined) columns.base_url = channel.baseUrl;
  if (channel.apiKeys !== undefined) columns.api_keys_sealed = secretBox.seal(JSON.stringify(channel.apiKeys));
  if (channel.models !== undefined) columns.models = JSON.stringify(channel.models);
  if (channel.modelMap !== undefined) columns.model_map = JSON.stringify(channel.modelMap);
  if (channel.priority !== undefined) columns.priority = channel.priority;
  if (channel.weight !== undefined) columns.weight = channel.weight;
  if (channel.enabled !== undefined) columns.enabled = channel.enabled ? 1 : 0;
  if (channel.supportsResponses !== undefined) columns.supports_responses = channel.supportsResponses ? 1 : 0;
  if (channel.allowedPrefixes !== undefined) columns.allowed_prefixes = JSON.stringify(channel.allowedPrefixes);
  // Cloud settings: present in a patch (even as '') means "set"; '' clears.
  if ('apiVersion' in channel) columns.api_version = channel.apiVersion || null;
  if ('region' in channel) columns.region = channel.region || null;
  if ('project' in channel) columns.project = channel.project || null;
  return columns;
}

function toChannel(row: Selectable<ChannelsTable>, groups: string[], secretBox: SecretBox): Channel {
  return {
    id: row.id,
    name: row.name,
    provider: row.provider as Channel['provider'],
    baseUrl: row.base_url,
    apiKeys: JSON.parse(secretBox.open(row.api_keys_sealed)) as string[],
    models: JSON.parse(row.models) as string[],
    groups,
    modelMap: JSON.parse(row.model_map) as Record<string, string>,
    priority: Number(row.priority),
    weight: Number(row.weight),
    enabled: Number(row.enabled) !== 0,
    supportsResponses: Number(row.supports_responses) !== 0,
    allowedPrefixes: JSON.parse(row.allowed_prefixes) as string[],
    ...(row.api_version ? { apiVersion: row.api_version } : {}),
    ...(row.region ? { region: row.region } : {}),
    ...(row.project ? { project: row.project } : {}),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
