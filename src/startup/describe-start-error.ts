import { ConfigError } from '../config/config-error.ts';
import { SecretBoxError } from '../store/secret-box.ts';

export interface StartFailure {
  /** One line for the operator: what failed and what to do. */
  message: string;
  /** 2: the configuration is wrong (fix it and start again); 1: the environment refused (port, database, …). */
  exitCode: 1 | 2;
}

interface Where {
  host: string;
  port: number;
}

/**
 * Turns whatever stopped the start into one line and an exit code: an operator reading a
 * service log needs the cause and the fix, not a stack trace (LOG_LEVEL=debug prints the stack).
 */
export function describeStartError(error: unknown, where: Where): StartFailure {
  if (error instanceof ConfigError) {
    return { message: oneLine(`${error.message.split('\n')[0]} ${error.problems.join('; ')}`), exitCode: 2 };
  }
  if (error instanceof SecretBoxError) return { message: oneLine(error.message), exitCode: 2 };
  const code = (error as { code?: unknown } | undefined)?.code;
  const text = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'EADDRINUSE':
      return {
        message: `${where.host}:${where.port} is already in use (another Switchyard or program listens there): stop it, or set PORT to a free port.`,
        exitCode: 1,
      };
    case 'EACCES':
      if (/listen/.test(text)) {
        return {
          message: `not allowed to listen on ${where.host}:${where.port} (ports below 1024 need privileges): set PORT=8080 or another port above 1023.`,
          exitCode: 1,
        };
      }
      return { message: oneLine(`permission denied: ${text}`), exitCode: 1 };
    case 'EADDRNOTAVAIL':
      return { message: `${where.host} is not an address of this machine: set HOST (e.g. 0.0.0.0 or 127.0.0.1).`, exitCode: 2 };
    case 'ENOTFOUND':
    case 'ECONNREFUSED':
    case 'ETIMEDOUT':
      return {
        message: oneLine(`cannot reach a service the gateway needs (${text}): check DATABASE_URL / REDIS_URL and that the service is up.`),
        exitCode: 1,
      };
    case 'ENOENT':
      return { message: oneLine(`a file the configuration names does not exist (${text}): check GATEWAY_CONFIG and DATABASE_URL.`), exitCode: 2 };
    case 'SQLITE_CANTOPEN':
      return { message: oneLine(`cannot open the SQLite database (${text}): check DATABASE_URL and that its directory is writable.`), exitCode: 1 };
    default:
      return { message: oneLine(`cannot start: ${text}`), exitCode: 1 };
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
