import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { usageCsvChunks } from '../../billing/usage-csv.ts';
import type { UsageLogQuery } from '../../store/usage-queries.ts';
import type { AdminAuditEntry, AdminLogEntry, AdminPage } from './admin-api-types.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditQuerySchema, logExportQuerySchema, logQuerySchema } from './admin-schemas.ts';

type LogExportQuery = z.infer<typeof logExportQuerySchema>;
import { findChannelByReference, findKeyByReference } from './find-by-reference.ts';
import { parseAdminInput } from '../parse-admin-input.ts';

/** `GET /logs` (usage rows, newest first, paged by cursor), `GET /logs/export` (the same as streamed CSV) and `GET /audit` (admin changes), inside the admin plugin. */
export function registerAdminLogRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  // Logs
  admin.get('/logs', async (request) => {
    await deps.usageWriter.flush();
    const query = parseAdminInput(logQuerySchema, request.query);
    const limit = query.limit ?? 100;
    const [cursorTime, cursorId] = query.cursor === undefined ? [] : splitCursor(query.cursor);
    const data = await (store.usageReads ?? store.usage).query({
      ...(await logFilter(store, query)),
      limit,
      ...(cursorTime === undefined ? {} : { before: cursorTime, beforeRequestId: cursorId }),
    });
    const last = data.at(-1);
    return {
      data: data.map((entry) => ({ ...entry, time: new Date(entry.time).toISOString() })),
      // The cursor of the next (older) page, while this page was full.
      next: data.length === limit && last ? `${last.time}.${last.requestId}` : null,
    } satisfies AdminPage<AdminLogEntry>;
  });

  // The same rows as CSV, streamed page by page (a month can be millions of rows).
  admin.get('/logs/export', async (request, reply) => {
    await deps.usageWriter.flush();
    const query = parseAdminInput(logExportQuerySchema, request.query);
    const filter = await logFilter(store, query);
    return (
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="usage.csv"')
        // A month's export reads the replica when there is one, never slowing the relay's writes.
        .send(Readable.from(usageCsvChunks(store.usageReads ?? store.usage, filter)))
    );
  });

  // Audit log: every change made through this API, newest first.
  admin.get('/audit', async (request) => {
    const query = parseAdminInput(auditQuerySchema, request.query);
    const limit = query.limit ?? 100;
    const data = await store.audit.list({
      limit,
      ...(query.kind === undefined ? {} : { targetKind: query.kind }),
      ...(query.target === undefined ? {} : { target: query.target }),
      ...(query.cursor === undefined ? {} : { before: query.cursor }),
    });
    const last = data.at(-1);
    return {
      data: data.map((entry) => ({ ...entry, time: new Date(entry.time).toISOString() })),
      next: data.length === limit && last ? last.id : null,
    } satisfies AdminPage<AdminAuditEntry>;
  });
}

/** The logs page's filters as a usage query. Keys and channels by id or by name; a name no record has any more is taken as an id (a deleted record's rows keep its id). */
async function logFilter(store: AppDeps['store'], query: LogExportQuery): Promise<UsageLogQuery> {
  const keyId = query.key === undefined ? undefined : ((await findKeyByReference(store, query.key))?.id ?? query.key);
  const channelId = query.channel === undefined ? undefined : ((await findChannelByReference(store, query.channel))?.id ?? query.channel);
  return {
    ...(keyId === undefined ? {} : { keyId }),
    ...(query.group === undefined ? {} : { group: query.group }),
    ...(query.model === undefined ? {} : { model: query.model }),
    ...(channelId === undefined ? {} : { channelId }),
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.from === undefined ? {} : { from: query.from }),
    ...(query.to === undefined ? {} : { to: query.to }),
  };
}

function splitCursor(cursor: string): [number, string] {
  const dot = cursor.indexOf('.');
  return [Number(cursor.slice(0, dot)), cursor.slice(dot + 1)];
}
