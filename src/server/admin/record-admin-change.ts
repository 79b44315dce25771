import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { NewAuditEntry } from '../../store/audit-log.ts';
import type { Store } from '../../store/store.ts';

export type AdminChange = Pick<NewAuditEntry, 'action' | 'targetKind' | 'targetId' | 'targetName' | 'before' | 'after'>;

/**
 * Appends one admin change to the audit log (who, from where, what, before and after) and logs
 * a line naming it. The records passed are admin-API views, so secrets are already masked. A
 * failed audit write is logged, not thrown: the change itself has been made and answered for.
 */
export async function recordAdminChange(deps: { store: Store; logger: Logger }, request: FastifyRequest, change: AdminChange): Promise<void> {
  const userAgent = request.headers['user-agent'];
  const entry: NewAuditEntry = {
    actor: request.adminActor?.name ?? 'admin',
    clientIp: request.ip ?? null,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 200) : null,
    requestId: String(request.id),
    ...change,
    before: change.before ?? null,
    after: change.after ?? null,
  };
  try {
    const stored = await deps.store.audit.append(entry);
    deps.logger.info(
      {
        event: 'admin_change',
        auditId: stored.id,
        action: entry.action,
        target: entry.targetName ?? entry.targetId,
        clientIp: entry.clientIp,
        requestId: entry.requestId,
      },
      `admin change: ${entry.action} ${entry.targetName ?? entry.targetId}`,
    );
  } catch (error) {
    deps.logger.error({ err: error, action: entry.action, target: entry.targetId }, 'could not write the audit log entry');
  }
}
