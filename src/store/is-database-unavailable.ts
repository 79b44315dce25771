/**
 * Whether a failed write failed because the database could not be used at all (unreachable,
 * connection lost, out of resources, busy), as opposed to a row it refused. Writers keep a whole
 * batch for the next flush on the first kind, and only look for the bad row on the second:
 * splitting a batch while the database is away costs one connection timeout per piece and kept
 * the queue from draining for minutes after the database came back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    // PostgreSQL SQLSTATE classes: 08 connection exception, 53 insufficient resources,
    // 57 operator intervention (shutdown, terminated connection), 58 system error; and 40
    // transaction rollback (a deadlock or a serialization failure between instances writing the
    // same rows): nothing is wrong with any row, so the batch is retried whole, never split and
    // a row set aside (which lost charges when four instances wrote one key's balance).
    if (/^(08|40|53|57|58)[0-9A-Z]{3}$/.test(code)) return true;
    if (/^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|NOMEM|READONLY)/.test(code)) return true;
  }
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

// node-postgres reports a lost or never-made connection in plain Errors without a code.
const UNAVAILABLE_MESSAGE =
  /connection (refused|terminated|timeout|reset)|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated|not queryable|pool is (ending|ended)/i;
