import { StoreConflictError } from './store.ts';

export interface ConstraintViolation {
  kind: 'unique' | 'foreign-key';
  /** The first column named by the driver, when it names one (SQLite does not for foreign keys). */
  column: string | undefined;
}

/** Recognises constraint violations from better-sqlite3 and pg, the only dialect-specific error shapes. */
export function describeConstraintViolation(error: unknown): ConstraintViolation | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, detail } = error as { code?: unknown; message?: unknown; detail?: unknown };
  switch (code) {
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY': {
      // "UNIQUE constraint failed: channels.name"
      const match = typeof message === 'string' ? /failed: \w+\.(\w+)/.exec(message) : null;
      return { kind: 'unique', column: match?.[1] };
    }
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return { kind: 'foreign-key', column: undefined };
    case '23505':
    case '23503': {
      // "Key (name)=(x) already exists." / "Key (group_name)=(x) is not present in table …"
      const match = typeof detail === 'string' ? /^Key \(([^,)]+)/.exec(detail) : null;
      return { kind: code === '23505' ? 'unique' : 'foreign-key', column: match?.[1] };
    }
    default:
      return undefined;
  }
}

export interface ConflictMessages {
  /** Keyed by snake_case column: the record field and the message to report. */
  unique?: Record<string, { field: string; message: string }>;
  foreignKey?: { field: string; message: string };
}

/** Turns a known constraint violation into a StoreConflictError; anything else is returned unchanged. */
export function translateConstraintError(error: unknown, messages: ConflictMessages): unknown {
  if (error instanceof StoreConflictError) return error;
  const violation = describeConstraintViolation(error);
  if (violation === undefined) return error;
  if (violation.kind === 'foreign-key') {
    const described = messages.foreignKey ?? { field: 'unknown', message: 'a referenced record does not exist' };
    return new StoreConflictError(described.message, described.field);
  }
  const described = violation.column === undefined ? undefined : messages.unique?.[violation.column];
  return described
    ? new StoreConflictError(described.message, described.field)
    : new StoreConflictError(`duplicate ${violation.column ?? 'value'}`, violation.column ?? 'unknown');
}
