import type { FastifyReply, FastifyRequest } from 'fastify';

/** A session cookie's name and the one API path it is sent to. */
export interface SessionCookieJar {
  name: string;
  path: string;
}

/**
 * The portal's cookie; `__Host-` would demand Secure, which plain-HTTP installs lack. Only the
 * account API reads it, so it is sent nowhere else (not to /v1, not to /api/admin).
 */
export const PORTAL_SESSION_COOKIE: SessionCookieJar = { name: 'switchyard_account', path: '/api/account' };
/** The console's cookie (issue 29): sent only to the admin API, never to the portal or /v1. */
export const CONSOLE_SESSION_COOKIE: SessionCookieJar = { name: 'switchyard_console', path: '/api/admin' };

/** The cookie's value on this request, if any. */
export function readSessionCookie(request: FastifyRequest, jar: SessionCookieJar = PORTAL_SESSION_COOKIE): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === jar.name) {
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
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeSeconds: number,
  jar: SessionCookieJar = PORTAL_SESSION_COOKIE,
): void {
  reply.header('set-cookie', cookieText(request, jar, token, maxAgeSeconds));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, jar: SessionCookieJar = PORTAL_SESSION_COOKIE): void {
  reply.header('set-cookie', cookieText(request, jar, '', 0));
}

function cookieText(request: FastifyRequest, jar: SessionCookieJar, value: string, maxAgeSeconds: number): string {
  const secure = isHttps(request) ? '; Secure' : '';
  return `${jar.name}=${value}; Path=${jar.path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
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
