import type { Kysely, Migration } from 'kysely';

/**
 * The tokens a stored Responses turn leaves in its chain's context (its billed input, which
 * includes the context before it, plus its output), so a continuation of a chain an upstream
 * keeps reserves for the context the upstream will bill, not only for the new turn's input.
 * Null for turns stored before this was kept.
 */
export const responsesContextTokensMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('stored_responses').addColumn('context_tokens', 'bigint').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('stored_responses').dropColumn('context_tokens').execute();
  },
};
