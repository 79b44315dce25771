import { randomBytes } from 'node:crypto';
import { GatewayError } from '../core/gateway-error.ts';
import type { IdentityOwner, SignInAudience } from '../domain/identity.ts';
import type { Kv } from '../kv/kv.ts';

/** How long the browser may take to ask the authenticator (WebAuthn's own timeout is 5 minutes). */
export const CEREMONY_TTL_MS = 5 * 60_000;

/** A started WebAuthn ceremony: the challenge the authenticator must sign, and for whom. */
export interface PendingCeremony {
  challenge: string;
  /** Registration: the signed-in owner adding a passkey. Sign-in: the audience being signed in to. */
  purpose: { kind: 'register'; owner: IdentityOwner } | { kind: 'sign-in'; audience: SignInAudience };
}

/**
 * WebAuthn challenges wait in the shared kv under a random ceremony id (which the browser holds in
 * an HttpOnly cookie, so a challenge only finishes in the browser that asked for it) and are taken
 * once with a bounded increment: a replayed response, on this instance or another, finds its
 * challenge spent.
 */
export class PasskeyChallenges {
  constructor(private readonly kv: Kv) {}

  async save(pending: PendingCeremony): Promise<string> {
    const ceremonyId = randomBytes(24).toString('base64url');
    await this.kv.setTexts([ceremonyKey(ceremonyId)], JSON.stringify(pending), CEREMONY_TTL_MS);
    return ceremonyId;
  }

  async take(ceremonyId: string | undefined): Promise<PendingCeremony> {
    if (ceremonyId === undefined || !/^[A-Za-z0-9_-]{32}$/.test(ceremonyId))
      throw passkeyRefused('This passkey request did not start in this browser: start again.');
    const [text] = await this.kv.getTexts([ceremonyKey(ceremonyId)]);
    if (text === undefined) throw passkeyRefused('This passkey request expired (5 minutes) or did not start here: start again.');
    const first = await this.kv.adjust(`${ceremonyKey(ceremonyId)}:used`, 1, { max: 1, ttlMs: CEREMONY_TTL_MS });
    if (!first.applied) throw passkeyRefused('This passkey challenge was already used: start again.');
    return JSON.parse(text) as PendingCeremony;
  }
}

export function passkeyRefused(message: string): GatewayError {
  return new GatewayError('sign_in_failed', message);
}

function ceremonyKey(ceremonyId: string): string {
  return `passkey-ceremony:${ceremonyId}`;
}
