import type { Kysely, Migration } from 'kysely';

/**
 * Cloud channel kinds (Azure OpenAI, Vertex AI, Bedrock) need a few settings the original
 * kinds did not: Azure's `api-version`, a region (Vertex, Bedrock) and a project (Vertex).
 * Nullable, so existing rows need no value.
 */
export const cloudChannelSettingsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('channels').addColumn('api_version', 'text').execute();
    await db.schema.alterTable('channels').addColumn('region', 'text').execute();
    await db.schema.alterTable('channels').addColumn('project', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('channels').dropColumn('project').execute();
    await db.schema.alterTable('channels').dropColumn('region').execute();
    await db.schema.alterTable('channels').dropColumn('api_version').execute();
  },
};
