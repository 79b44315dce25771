import { createSign } from 'node:crypto';
import { request } from 'undici';
import { GatewayError } from '../../../core/gateway-error.ts';
import { AccessTokenCache, type MintedToken } from './access-token-cache.ts';

/** Google's scope for Vertex AI (and every other Cloud API). */
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
/** Google issues assertions for at most an hour. */
const ASSERTION_LIFETIME_SECONDS = 3600;
/** Renew this long before a token expires, so no request leaves with one about to lapse. */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** Distinct service accounts per process are few; the bound only stops a leak. */
const MAX_CACHED_ACCOUNTS = 256;
const MINT_TIMEOUT_MS = 15_000;

export interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  tokenUri: string;
}

const tokens = new AccessTokenCache(MAX_CACHED_ACCOUNTS);

/**
 * Reads a service-account key file (the JSON Google hands out). A channel secret that is not
 * one is the operator's configuration error: reported with status 401 so the channel (or that
 * key) is taken out like any other refused credential.
 */
export function parseServiceAccount(secret: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(secret);
  } catch {
    throw credentialError('the channel secret is not a service-account JSON key');
  }
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const clientEmail = record.client_email;
  const privateKey = record.private_key;
  if (typeof clientEmail !== 'string' || typeof privateKey !== 'string' || !privateKey.includes('PRIVATE KEY')) {
    throw credentialError('the service-account JSON lacks client_email or private_key');
  }
  const tokenUri = typeof record.token_uri === 'string' && /^https?:\/\//.test(record.token_uri) ? record.token_uri : DEFAULT_TOKEN_URI;
  return {
    clientEmail,
    privateKey,
    tokenUri,
    ...(typeof record.private_key_id === 'string' ? { privateKeyId: record.private_key_id } : {}),
  };
}

/**
 * An OAuth access token for a service account, minted with a signed JWT assertion (RFC 7523)
 * at the account's own `token_uri` and cached until shortly before it expires. Concurrent
 * requests share one mint. google-auth-library always posts to Google's public token
 * endpoint, ignoring `token_uri` (private or test endpoints), hence this small implementation.
 */
export async function getServiceAccountToken(secret: string, now: () => number = Date.now): Promise<string> {
  return tokens.get(secret, now, () => mintToken(parseServiceAccount(secret), now));
}

/** The access tokens minted from this service account that may still be in use (for redaction). */
export function mintedServiceAccountTokens(secret: string): string[] {
  return tokens.tokensOf(secret);
}

/** Forgets every cached token (tests; a rotated key). */
export function clearServiceAccountTokens(): void {
  tokens.clear();
}

/** The signed JWT assertion Google's token endpoint exchanges for an access token. */
export function signAssertion(account: ServiceAccount, issuedAtSeconds: number): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) };
  const claims = {
    iss: account.clientEmail,
    scope: CLOUD_PLATFORM_SCOPE,
    aud: account.tokenUri,
    iat: issuedAtSeconds,
    exp: issuedAtSeconds + ASSERTION_LIFETIME_SECONDS,
  };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  let signature: string;
  try {
    signature = createSign('RSA-SHA256').update(unsigned).sign(account.privateKey, 'base64url');
  } catch {
    throw credentialError('the service-account private_key cannot sign (not a valid PEM RSA key)');
  }
  return `${unsigned}.${signature}`;
}

async function mintToken(account: ServiceAccount, now: () => number): Promise<MintedToken> {
  const startedAt = now();
  const assertion = signAssertion(account, Math.floor(startedAt / 1000));
  const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
  let status: number;
  let text: string;
  try {
    const response = await request(account.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(MINT_TIMEOUT_MS),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    throw new GatewayError('upstream_unreachable', `Could not reach the service account's token endpoint (${(error as { code?: string }).code ?? 'error'}).`, {
      cause: error,
    });
  }
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Reported below with the status.
  }
  if (status >= 500) {
    throw new GatewayError('upstream_error', `The service account's token endpoint answered ${status}.`, { status: 502 });
  }
  if (status !== 200 || typeof body.access_token !== 'string') {
    const reason = [body.error, body.error_description].filter((part) => typeof part === 'string').join(': ');
    throw credentialError(`the token endpoint refused the service account (${status}${reason ? `: ${reason}` : ''})`);
  }
  const expiresInMs = (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600) * 1000;
  // Short-lived tokens (tests, some federated setups) renew at half their life instead.
  const margin = Math.min(REFRESH_MARGIN_MS, expiresInMs / 2);
  return { token: body.access_token, renewAt: startedAt + expiresInMs - margin };
}

function credentialError(detail: string): GatewayError {
  return new GatewayError('upstream_error', `Vertex AI credentials: ${detail}.`, { status: 401 });
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
