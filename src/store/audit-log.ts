/** One admin change. `before`/`after` are the records as the admin API shows them (secrets masked). */
export interface AuditEntry {
  id: string;
  /** Epoch ms. */
  time: number;
  /** Who: `admin` (the admin token) or `config-file` (applied at start-up). */
  actor: string;
  clientIp: string | null;
  userAgent: string | null;
  requestId: string | null;
  /** What: `<kind>.<verb>`, e.g. `channel.update`, `key.create`, `price.delete`. */
  action: string;
  targetKind:
    | 'group'
    | 'channel'
    | 'key'
    | 'price'
    | 'admin'
    | 'admin-token'
    | 'notification-channel'
    | 'notification-rule'
    | 'announcement'
    | 'settings'
    | 'sign-in-provider'
    | 'user';
  targetId: string;
  targetName: string | null;
  /** null for a creation. */
  before: unknown;
  /** null for a deletion. */
  after: unknown;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'time'>;

export interface AuditQuery {
  limit?: number;
  targetKind?: AuditEntry['targetKind'];
  /** Matches the target's id or name. */
  target?: string;
  /** Cursor: only entries older than this entry id (ids sort by time). */
  before?: string;
}

export interface AuditLogRepository {
  append(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Newest first. */
  list(query?: AuditQuery): Promise<AuditEntry[]>;
}
