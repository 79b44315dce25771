import { randomBytes } from 'node:crypto';
import type { AuditEntry, AuditLogRepository } from '../audit-log.ts';
import type { AuditLogTable } from '../database-schema.ts';
import type { StoreContext } from '../store-context.ts';

let counter = 0;

/** Ids that sort by time: zero-padded epoch ms, a per-process counter, random bits. */
function auditId(time: number): string {
  counter = (counter + 1) % 1_000_000;
  return `aud_${time.toString().padStart(15, '0')}_${counter.toString().padStart(6, '0')}${randomBytes(4).toString('hex')}`;
}

export function createAuditLogRepository({ db, now }: StoreContext): AuditLogRepository {
  return {
    async append(input) {
      const entry: AuditEntry = { ...input, id: auditId(now()), time: now() };
      await db.insertInto('audit_log').values(toRow(entry)).execute();
      return entry;
    },
    async list(query = {}) {
      let select = db.selectFrom('audit_log').selectAll();
      if (query.targetKind !== undefined) select = select.where('target_kind', '=', query.targetKind);
      if (query.target !== undefined) {
        const target = query.target;
        select = select.where((where) => where.or([where('target_id', '=', target), where('target_name', '=', target)]));
      }
      if (query.before !== undefined) select = select.where('id', '<', query.before);
      const rows = await select
        .orderBy('id', 'desc')
        .limit(query.limit ?? 100)
        .execute();
      return rows.map(fromRow);
    },
  };
}

function toRow(entry: AuditEntry): AuditLogTable {
  return {
    id: entry.id,
    time: entry.time,
    actor: entry.actor,
    client_ip: entry.clientIp,
    user_agent: entry.userAgent,
    request_id: entry.requestId,
    action: entry.action,
    target_kind: entry.targetKind,
    target_id: entry.targetId,
    target_name: entry.targetName,
    before: entry.before === null || entry.before === undefined ? null : JSON.stringify(entry.before),
    after: entry.after === null || entry.after === undefined ? null : JSON.stringify(entry.after),
  };
}

function fromRow(row: AuditLogTable): AuditEntry {
  return {
    id: row.id,
    time: Number(row.time),
    actor: row.actor,
    clientIp: row.client_ip,
    userAgent: row.user_agent,
    requestId: row.request_id,
    action: row.action,
    targetKind: row.target_kind as AuditEntry['targetKind'],
    targetId: row.target_id,
    targetName: row.target_name,
    before: row.before === null ? null : (JSON.parse(row.before) as unknown),
    after: row.after === null ? null : (JSON.parse(row.after) as unknown),
  };
}
