import type { Selectable } from 'kysely';
import type { StoredResponse, StoredResponseHolder } from '../../domain/stored-response.ts';
import type { StoredResponseRepository } from '../store.ts';
import type { StoreContext } from '../store-context.ts';
import type { StoredResponsesTable } from '../stored-responses-table.ts';
import { translateConstraintError } from '../translate-constraint-error.ts';

export function createStoredResponseRepository({ db }: StoreContext): StoredResponseRepository {
  return {
    async insert(record) {
      try {
        await db
          .insertInto('stored_responses')
          .values({
            id: record.id,
            key_id: record.keyId,
            previous_response_id: record.previousResponseId,
            holder: record.holder,
            channel_id: record.channelId,
            upstream_key_hash: record.upstreamKeyHash,
            model: record.model,
            input_json: record.input === null ? null : JSON.stringify(record.input),
            response_json: record.response === null ? null : JSON.stringify(record.response),
            size_bytes: record.sizeBytes,
            context_tokens: record.contextTokens ?? null,
            created_at: record.createdAt,
            expires_at: record.expiresAt,
          })
          .execute();
      } catch (error) {
        throw translateConstraintError(error, { unique: { id: { field: 'id', message: `a response with id "${record.id}" is already stored` } } });
      }
    },

    async find(id, keyId, now) {
      const row = await db
        .selectFrom('stored_responses')
        .selectAll()
        .where('id', '=', id)
        .where('key_id', '=', keyId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row === undefined ? undefined : toStoredResponse(row);
    },

    async storedBytes(keyId, now) {
      const row = await db
        .selectFrom('stored_responses')
        .select((builder) => builder.fn.sum<number | string | null>('size_bytes').as('bytes'))
        .where('key_id', '=', keyId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(row?.bytes ?? 0);
    },

    async recent(keyId, now, limit) {
      const rows = await db
        .selectFrom('stored_responses')
        .selectAll()
        .where('key_id', '=', keyId)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toStoredResponse);
    },

    async delete(id, keyId) {
      const result = await db.deleteFrom('stored_responses').where('id', '=', id).where('key_id', '=', keyId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async prune(now) {
      const result = await db.deleteFrom('stored_responses').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

function toStoredResponse(row: Selectable<StoredResponsesTable>): StoredResponse {
  return {
    id: row.id,
    keyId: row.key_id,
    previousResponseId: row.previous_response_id,
    holder: row.holder as StoredResponseHolder,
    channelId: row.channel_id,
    upstreamKeyHash: row.upstream_key_hash,
    model: row.model,
    input: row.input_json === null ? null : (JSON.parse(row.input_json) as unknown[]),
    response: row.response_json === null ? null : (JSON.parse(row.response_json) as Record<string, unknown>),
    sizeBytes: Number(row.size_bytes),
    contextTokens: row.context_tokens === null || row.context_tokens === undefined ? null : Number(row.context_tokens),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}
