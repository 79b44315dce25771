import { request } from 'undici';
import { GatewayError } from '../../../core/gateway-error.ts';
import { AccessTokenCache, type MintedToken } from './access-token-cache.ts';

/** The audience Azure OpenAI accepts Entra ID tokens for. */
export const AZURE_COGNITIVE_SCOPE = 'https://cognitiveservices.azure.com/.default';
const DEFAULT_AUTHORITY = 'https://login.microsoftonline.com';
/** Renew this long before a token expires, so no request leaves with one about to lapse. */
const REFRESH_MARGIN_MS = 5 * 60_000;
const MAX_CACHED_APPS = 256;
const MINT_TIMEOUT_MS = 15_000;

/** An app registration (service principal) with a client secret, as the channel's secret. */
export interface EntraApp {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** Sovereign clouds (`https://login.microsoftonline.us`) or a test endpoint. */
  authorityHost: string;
}

const tokens = new AccessTokenCache(MAX_CACHED_APPS);

/** An Azure channel secret is a resource key, or a JSON object naming an Entra ID app. */
export function isEntraSecret(secret: string): boolean {
  return secret.trimStart().startsWith('{');
}

export function parseEntraApp(secret: string): EntraApp {
  let parsed: unknown;
  try {
    parsed = JSON.parse(secret);
  } catch {
    throw credentialError('the channel secret starts like JSON but is not valid JSON');
  }
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const { tenantId, clientId, clientSecret, authorityHost } = record;
  if (typeof tenantId !== 'string' || typeof clientId !== 'string' || typeof clientSecret !== 'string' || !tenantId || !clientId || !clientSecret) {
    throw credentialError('the Entra ID secret needs tenantId, clientId and clientSecret');
  }
  return {
    tenantId,
    clientId,
    clientSecret,
    authorityHost: typeof authorityHost === 'string' && /^https?:\/\//.test(authorityHost) ? authorityHost.replace(/\/+$/, '') : DEFAULT_AUTHORITY,
  };
}

/**
 * An Entra ID access token for Azure OpenAI by the OAuth client-credentials grant at the app's
 * tenant, cached until shortly before it expires; concurrent requests share one mint. Small
 * and hand-written like the Vertex token: @azure/identity would bring a large dependency tree
 * for one form POST.
 */
export async function getEntraToken(secret: string, now: () => number = Date.now): Promise<string> {
  return tokens.get(secret, now, () => mintToken(parseEntraApp(secret), now));
}

/** The Entra tokens minted from this secret that may still be in use (for redaction). */
export function mintedEntraTokens(secret: string): string[] {
  return tokens.tokensOf(secret);
}

/** Forgets every cached token (tests; a rotated secret). */
export function clearEntraTokens(): void {
  tokens.clear();
}

async function mintToken(app: EntraApp, now: () => number): Promise<MintedToken> {
  const startedAt = now();
  const url = `${app.authorityHost}/${encodeURIComponent(app.tenantId)}/oauth2/v2.0/token`;
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    scope: AZURE_COGNITIVE_SCOPE,
  }).toString();
  let status: number;
  let text: string;
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(MINT_TIMEOUT_MS),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    throw new GatewayError('upstream_unreachable', `Could not reach the Entra ID token endpoint (${(error as { code?: string }).code ?? 'error'}).`, {
      cause: error,
    });
  }
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Reported below with the status.
  }
  if (status >= 500) throw new GatewayError('upstream_error', `The Entra ID token endpoint answered ${status}.`, { status: 502 });
  if (status !== 200 || typeof body.access_token !== 'string') {
    // error_description quotes trace and correlation ids, never the secret; the error code is enough.
    const reason = typeof body.error === 'string' ? `: ${body.error}` : '';
    throw credentialError(`the token endpoint refused the app (${status}${reason})`);
  }
  const expiresInMs = (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600) * 1000;
  const margin = Math.min(REFRESH_MARGIN_MS, expiresInMs / 2);
  return { token: body.access_token, renewAt: startedAt + expiresInMs - margin };
}

function credentialError(detail: string): GatewayError {
  return new GatewayError('upstream_error', `Azure Entra ID credentials: ${detail}.`, { status: 401 });
}
