import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The session cookie's name; `__Host-` would demand Secure, which plain-HTTP installs lack. */
export const SESSION_COOKIE = 'switchyard_account';
/** Only the account API reads the cookie, so it is sent nowhere else (not to /v1, not to /api/admin). */
const COOKIE_PATH = '/api/account';

/** A new random session secret (256 bits), as sent in the cookie or the CSRF header. */
export function newSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a cookie value. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The cookie's value on this request, if any. */
export function readSessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === SESSION_COOKIE) {
      const value = part.slice(index + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/**
 * HttpOnly (scripts cannot read it), SameSite=Strict (no other site's page can make the browser
 * send it), Path=/api/account, and Secure whenever the request came over HTTPS.
 */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  reply.header('set-cookie', cookieText(request, token, maxAgeSeconds));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', cookieText(request, '', 0));
}

function cookieText(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const secure = isHttps(request) ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
}

/** Constant-time comparison of the CSRF header with the session's token. */
export function csrfMatches(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string' || sent.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}

/**
 * A browser always sends Origin on cross-origin POST/PATCH/DELETE; when present it must be this
 * gateway's own origin. A second wall behind the CSRF token and SameSite.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (typeof origin !== 'string' || origin === 'null') return false;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}
