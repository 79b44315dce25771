import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Passkey } from '../domain/identity.ts';
import { CEREMONY_TTL_MS, PasskeyChallenges } from '../identity/passkey-challenges.ts';
import { Passkeys, passkeySiteOf } from '../identity/passkeys.ts';
import type { AppDeps } from './app-deps.ts';

/**
 * What the portal's and the console's passkey routes share (issue 29): the ceremonies, the
 * HttpOnly cookie that ties a challenge to the browser that asked for it, the bodies and the view.
 */
const CEREMONY_COOKIE = 'switchyard_passkey';

export function passkeysOf(deps: AppDeps): Passkeys {
  return new Passkeys(
    deps.store.passkeys,
    new PasskeyChallenges(deps.access.kv),
    () => deps.runtime.now(),
    () => passkeySiteOf(deps.settings.publicUrl),
  );
}

/** Path=/api: the portal's (/api/account) and the console's (/api/admin) ceremonies both read it. */
export function setCeremonyCookie(request: FastifyRequest, reply: FastifyReply, ceremonyId: string): void {
  const secure = request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${CEREMONY_COOKIE}=${ceremonyId}; Path=/api; Max-Age=${CEREMONY_TTL_MS / 1000}; HttpOnly; SameSite=Strict${secure}`);
}

export function ceremonyCookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === CEREMONY_COOKIE) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** The browser's `PublicKeyCredential` as JSON (`@simplewebauthn/browser` sends it); the library checks the inside. */
const credentialJson = z.looseObject({
  id: z.string().min(1).max(1400),
  rawId: z.string().min(1).max(1400),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().max(8192) }),
  clientExtensionResults: z.looseObject({}).optional().default({}),
});
const passkeyName = z.string().trim().min(1).max(100);

export const passkeyRegistrationSchema = z.strictObject({ name: passkeyName.optional(), response: credentialJson });
export const passkeySignInSchema = z.strictObject({ response: credentialJson });
export const passkeyRenameSchema = z.strictObject({ name: passkeyName });

export function asRegistrationResponse(response: z.infer<typeof credentialJson>): RegistrationResponseJSON {
  return response as unknown as RegistrationResponseJSON;
}
export function asAuthenticationResponse(response: z.infer<typeof credentialJson>): AuthenticationResponseJSON {
  return response as unknown as AuthenticationResponseJSON;
}

/** What a passkey's owner (or an owner admin) sees: never the public key's bytes, which no one needs. */
export function passkeyView(passkey: Passkey) {
  return {
    id: passkey.id,
    name: passkey.name,
    backedUp: passkey.backedUp,
    transports: passkey.transports,
    createdAt: new Date(passkey.createdAt).toISOString(),
    lastUsedAt: passkey.lastUsedAt === null ? null : new Date(passkey.lastUsedAt).toISOString(),
  };
}

/** A passkey without a name is called after the device that registered it. */
export function defaultPasskeyName(request: FastifyRequest): string {
  const agent = String(request.headers['user-agent'] ?? '');
  const platform = /Windows|Macintosh|iPhone|iPad|Android|Linux|CrOS/.exec(agent)?.[0];
  return platform ? `Passkey (${platform})` : 'Passkey';
}
