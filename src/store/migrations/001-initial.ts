import type { Kysely, Migration } from 'kysely';

/**
 * The first schema. Written against `Kysely<any>` so later schema changes never break it, and
 * with types both SQLite and PostgreSQL accept: TEXT, INTEGER, BIGINT, DOUBLE PRECISION.
 */
export const initialMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('groups')
      .addColumn('name', 'text', (column) => column.primaryKey())
      .addColumn('description', 'text', (column) => column.notNull().defaultTo(''))
      .addColumn('price_multiplier', 'double precision', (column) => column.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('channels')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('provider', 'text', (column) => column.notNull())
      .addColumn('base_url', 'text', (column) => column.notNull())
      .addColumn('api_keys_sealed', 'text', (column) => column.notNull())
      .addColumn('models', 'text', (column) => column.notNull().defaultTo('[]'))
      .addColumn('model_map', 'text', (column) => column.notNull().defaultTo('{}'))
      .addColumn('priority', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('weight', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('supports_responses', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('allowed_prefixes', 'text', (column) => column.notNull().defaultTo('[]'))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('channels_name_unique', ['name'])
      .execute();

    // A join table rather than a JSON column so the database itself rejects unknown groups.
    await db.schema
      .createTable('channel_groups')
      .addColumn('channel_id', 'text', (column) => column.notNull().references('channels.id').onDelete('cascade'))
      .addColumn('group_name', 'text', (column) => column.notNull().references('groups.name').onDelete('cascade'))
      .addColumn('position', 'integer', (column) => column.notNull())
      .addPrimaryKeyConstraint('channel_groups_pk', ['channel_id', 'group_name'])
      .execute();
    await db.schema.createIndex('channel_groups_group_name').on('channel_groups').column('group_name').execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      // RESTRICT: a group cannot disappear from under the keys bound to it.
      .addColumn('group_name', 'text', (column) => column.notNull().references('groups.name').onDelete('restrict'))
      .addColumn('key_hash', 'text', (column) => column.notNull())
      .addColumn('key_hint', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('balance_micros', 'bigint')
      .addColumn('spent_micros', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('allowed_models', 'text')
      .addColumn('allowed_ips', 'text')
      .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('limits', 'text', (column) => column.notNull().defaultTo('{}'))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('api_keys_name_unique', ['name'])
      .addUniqueConstraint('api_keys_key_hash_unique', ['key_hash'])
      .execute();
    await db.schema.createIndex('api_keys_group_name').on('api_keys').column('group_name').execute();

    await db.schema
      .createTable('model_prices')
      .addColumn('model', 'text', (column) => column.primaryKey())
      .addColumn('input_per_million', 'bigint', (column) => column.notNull())
      .addColumn('output_per_million', 'bigint', (column) => column.notNull())
      .addColumn('cache_read_per_million', 'bigint')
      .addColumn('cache_write_per_million', 'bigint')
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('usage_logs')
      .addColumn('request_id', 'text', (column) => column.primaryKey())
      .addColumn('time', 'bigint', (column) => column.notNull())
      .addColumn('key_id', 'text')
      .addColumn('key_name', 'text')
      .addColumn('group_name', 'text')
      .addColumn('model', 'text')
      .addColumn('upstream_model', 'text')
      .addColumn('channel_id', 'text')
      .addColumn('channel_name', 'text')
      .addColumn('client_protocol', 'text')
      .addColumn('upstream_protocol', 'text')
      .addColumn('surface', 'text')
      .addColumn('status', 'integer', (column) => column.notNull())
      .addColumn('error_code', 'text')
      .addColumn('error_message', 'text')
      .addColumn('input_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('output_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('cache_read_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('cache_write_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('reasoning_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('cost_micros', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('latency_ms', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('ttft_ms', 'bigint')
      .addColumn('stream', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('warnings', 'text', (column) => column.notNull().defaultTo('[]'))
      .addColumn('attempts', 'text', (column) => column.notNull().defaultTo('[]'))
      .addColumn('client_ip', 'text')
      .execute();
    // Every listing is newest first, optionally narrowed by one of these columns.
    await db.schema.createIndex('usage_logs_time').on('usage_logs').columns(['time', 'request_id']).execute();
    for (const column of ['key_id', 'model', 'channel_id', 'group_name']) {
      await db.schema.createIndex(`usage_logs_${column}_time`).on('usage_logs').columns([column, 'time']).execute();
    }

    await db.schema
      .createTable('settings')
      .addColumn('name', 'text', (column) => column.primaryKey())
      .addColumn('value', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();

    await db
      .insertInto('groups')
      .values({
        name: 'default',
        description: 'The group new keys join unless told otherwise.',
        price_multiplier: 1,
        created_at: Date.now(),
      })
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['settings', 'usage_logs', 'model_prices', 'api_keys', 'channel_groups', 'channels', 'groups']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
