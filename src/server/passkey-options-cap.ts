import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../core/gateway-error.ts';
import { fixedWindow, secondsLeft, takeWindowPlace } from '../kv/fixed-window.ts';
import type { AppDeps } from './app-deps.ts';
import { clientIpOf } from './authenticate-request.ts';

/** Passkey sign-in starts per client address per minute: far above a person retrying, far below a flood. */
export const PASSKEY_OPTIONS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;

/**
 * Caps the public `…/passkey-session/options` calls per address (issue 29). Each call stores a
 * challenge in the shared kv for five minutes with no session behind it, so an unmetered caller
 * could fill Redis; a fixed window counted with one bounded atomic increment (as the sign-in and
 * sign-up throttles do) refuses the 31st call of a minute with 429 and Retry-After.
 */
export async function admitPasskeyOptions(deps: AppDeps, request: FastifyRequest, audience: 'portal' | 'console'): Promise<void> {
  const now = deps.runtime.now();
  const window = fixedWindow(now, WINDOW_MS);
  const key = `passkey-options:${audience}:${clientIpOf(deps, request)}:${window.index}`;
  if (await takeWindowPlace(deps.access.kv, key, PASSKEY_OPTIONS_PER_MINUTE, window, now)) return;
  const wait = secondsLeft(window, now);
  throw new GatewayError('rate_limited', `Too many passkey sign-ins started from your address; try again in ${wait} seconds.`, { retryAfterSeconds: wait });
}
