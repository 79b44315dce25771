import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseDatabaseUrl } from './parse-database-url.ts';

export interface LoadGatewaySecretOptions {
  databaseUrl: string;
  /** The GATEWAY_SECRET setting, when given. */
  gatewaySecret?: string | undefined;
}

export const GATEWAY_SECRET_FILE = 'gateway.secret';

/**
 * The secret the channel secrets are encrypted with, as bytes. It is always the UTF-8 bytes of a
 * text secret, so the contents of a generated `gateway.secret` file can later be moved into
 * GATEWAY_SECRET (e.g. when switching to PostgreSQL) and still decrypt the same data.
 *
 * - GATEWAY_SECRET when set.
 * - SQLite: `<directory of the database>/gateway.secret`, created on first use with 32 random
 *   bytes (hex) and mode 0600. `sqlite::memory:` gets a throwaway secret.
 * - PostgreSQL: GATEWAY_SECRET is required, since every instance must share the same secret.
 */
export function loadGatewaySecret(options: LoadGatewaySecretOptions): Buffer {
  const configured = options.gatewaySecret?.trim();
  if (configured) return Buffer.from(configured, 'utf8');

  const location = parseDatabaseUrl(options.databaseUrl);
  switch (location.dialect) {
    case 'postgres':
      throw new Error(
        'GATEWAY_SECRET is required with PostgreSQL: every gateway instance must encrypt and decrypt channel ' +
          'secrets with the same key. Set GATEWAY_SECRET to a long random string (e.g. `openssl rand -hex 32`) ' +
          'on all instances.',
      );
    case 'sqlite':
      if (location.path === ':memory:') return Buffer.from(randomBytes(32).toString('hex'), 'utf8');
      return Buffer.from(readOrCreateSecretFile(join(dirname(resolve(location.path)), GATEWAY_SECRET_FILE)), 'utf8');
    default: {
      const unreachable: never = location;
      return unreachable;
    }
  }
}

function readOrCreateSecretFile(path: string): string {
  const existing = readSecretFile(path);
  if (existing !== undefined) return existing;

  mkdirSync(dirname(path), { recursive: true });
  // Write a temporary file, then link it into place: link fails if another process won the race,
  // so nobody ever reads a half-written secret and all processes end up with the same one.
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  const created = readSecretFile(path);
  if (created === undefined) throw new Error(`${path} is empty; delete it or set GATEWAY_SECRET`);
  return created;
}

function readSecretFile(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const secret = text.trim();
  if (secret === '') throw new Error(`${path} is empty; delete it to generate a new one or set GATEWAY_SECRET`);
  return secret;
}
