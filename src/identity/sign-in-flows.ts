import { GatewayError } from '../core/gateway-error.ts';
import type { SignInAudience } from '../domain/identity.ts';
import type { Kv } from '../kv/kv.ts';

/** How long a started sign-in may take at the provider. */
const FLOW_TTL_MS = 10 * 60_000;

/** A sign-in started at a provider: what the callback needs to finish it. */
export interface PendingFlow {
  provider: string;
  audience: SignInAudience;
  /** The PKCE code verifier (S256). */
  verifier: string;
  /** OIDC only: the ID token's expected nonce. */
  nonce?: string;
}

/**
 * Started sign-ins wait in the shared kv under their random `state` for ten minutes, so the
 * callback may land on any instance; `take` consumes one with a bounded increment, so a state
 * (and the code that came with it) finishes one sign-in only.
 */
export class SignInFlows {
  constructor(private readonly kv: Kv) {}

  async save(state: string, pending: PendingFlow): Promise<void> {
    await this.kv.setTexts([flowKey(state)], JSON.stringify(pending), FLOW_TTL_MS);
  }

  async take(state: string, providerName: string): Promise<PendingFlow> {
    const [text] = await this.kv.getTexts([flowKey(state)]);
    const pending = text === undefined ? undefined : (JSON.parse(text) as PendingFlow);
    if (!pending || pending.provider !== providerName) throw signInRefused('The sign-in expired or did not start here: start it again.');
    const first = await this.kv.adjust(`${flowKey(state)}:used`, 1, { max: 1, ttlMs: FLOW_TTL_MS });
    if (!first.applied) throw signInRefused('This sign-in link was already used: start the sign-in again.');
    return pending;
  }
}

export function signInRefused(message: string): GatewayError {
  return new GatewayError('sign_in_failed', message);
}

function flowKey(state: string): string {
  return `signin-flow:${state}`;
}
