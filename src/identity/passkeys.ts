import type * as WebAuthn from '@simplewebauthn/server';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { IdentityOwner, Passkey, SignInAudience } from '../domain/identity.ts';
import { type PasskeyRepository, StoreConflictError } from '../store/store.ts';
import { type PasskeyChallenges, passkeyRefused } from './passkey-challenges.ts';

/**
 * `@simplewebauthn/server` (with its ASN.1 and X.509 libraries, ~1 MB of source) is loaded on the
 * first passkey ceremony, not at start-up (idle RSS; BENCHMARKS.md).
 */
const loadWebAuthn = (): Promise<typeof WebAuthn> => import('@simplewebauthn/server');

/** The relying party: passkeys are bound to `PUBLIC_URL`'s host name, and only its origin may use them. */
export interface PasskeySite {
  rpId: string;
  origin: string;
}

/** The site from `PUBLIC_URL`; without it passkeys cannot be offered (the request's Host is never trusted). */
export function passkeySiteOf(publicUrl: string | undefined): PasskeySite {
  if (!publicUrl) throw new GatewayError('internal_error', 'PUBLIC_URL is not set, so passkeys cannot be bound to this gateway; the operator must set it.');
  const url = new URL(publicUrl);
  return { rpId: url.hostname, origin: url.origin };
}

/** A started ceremony: the options the browser hands to `navigator.credentials`, and the id of its challenge. */
export interface StartedCeremony<Options> {
  ceremonyId: string;
  options: Options;
}

const OWNER_KIND: Record<SignInAudience, IdentityOwner['kind']> = { portal: 'user', console: 'admin' };

/**
 * Passkey registration and sign-in (WebAuthn, through `@simplewebauthn/server`). User
 * verification is required on both (a PIN or biometric on the authenticator), so a passkey
 * sign-in is two factors by itself. Passkeys are discoverable: sign-in asks for no name first.
 */
export class Passkeys {
  constructor(
    private readonly repository: PasskeyRepository,
    private readonly challenges: PasskeyChallenges,
    private readonly now: () => number,
    private readonly site: () => PasskeySite,
  ) {}

  async startRegistration(owner: IdentityOwner, userName: string): Promise<StartedCeremony<PublicKeyCredentialCreationOptionsJSON>> {
    const existing = await this.repository.list(owner);
    const { generateRegistrationOptions } = await loadWebAuthn();
    const options = await generateRegistrationOptions({
      rpName: 'Switchyard',
      rpID: this.site().rpId,
      userName,
      userID: new Uint8Array(Buffer.from(`${owner.kind}:${owner.id}`)),
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const ceremonyId = await this.challenges.save({ challenge: options.challenge, purpose: { kind: 'register', owner } });
    return { ceremonyId, options };
  }

  /** A refused registration is a 400, not a 401: the person is signed in, and stays so. */
  async finishRegistration(ceremonyId: string | undefined, owner: IdentityOwner, response: RegistrationResponseJSON, name: string): Promise<Passkey> {
    try {
      return await this.register(ceremonyId, owner, response, name);
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'sign_in_failed') throw invalidRequest(error.message, 'response');
      if (error instanceof StoreConflictError) throw new GatewayError('conflict', 'This passkey is already registered.');
      throw error;
    }
  }

  private async register(ceremonyId: string | undefined, owner: IdentityOwner, response: RegistrationResponseJSON, name: string): Promise<Passkey> {
    const pending = await this.challenges.take(ceremonyId);
    if (pending.purpose.kind !== 'register' || pending.purpose.owner.kind !== owner.kind || pending.purpose.owner.id !== owner.id) {
      throw passkeyRefused('This passkey registration was started by someone else: start again.');
    }
    const { rpId, origin } = this.site();
    const { verifyRegistrationResponse } = await loadWebAuthn();
    const verified = await refuseOnError(() =>
      verifyRegistrationResponse({ response, expectedChallenge: pending.challenge, expectedOrigin: origin, expectedRPID: rpId, requireUserVerification: true }),
    );
    if (!verified.verified) throw passkeyRefused('The authenticator’s answer did not verify.');
    const { credential, credentialBackedUp } = verified.registrationInfo;
    return this.repository.create({
      credentialId: credential.id,
      owner,
      name,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      backedUp: credentialBackedUp,
    });
  }

  async startSignIn(audience: SignInAudience): Promise<StartedCeremony<PublicKeyCredentialRequestOptionsJSON>> {
    const { generateAuthenticationOptions } = await loadWebAuthn();
    const options = await generateAuthenticationOptions({ rpID: this.site().rpId, userVerification: 'required' });
    const ceremonyId = await this.challenges.save({ challenge: options.challenge, purpose: { kind: 'sign-in', audience } });
    return { ceremonyId, options };
  }

  /** The passkey that signed, after its signature, origin, challenge (once) and counter all checked out. */
  async finishSignIn(ceremonyId: string | undefined, audience: SignInAudience, response: AuthenticationResponseJSON): Promise<Passkey> {
    const pending = await this.challenges.take(ceremonyId);
    if (pending.purpose.kind !== 'sign-in' || pending.purpose.audience !== audience)
      throw passkeyRefused('This passkey sign-in started elsewhere: start again.');
    const passkey = await this.repository.findByCredentialId(response.id);
    if (!passkey || passkey.owner.kind !== OWNER_KIND[audience]) throw passkeyRefused('This passkey is not registered here (it may have been removed).');
    const { rpId, origin } = this.site();
    const { verifyAuthenticationResponse } = await loadWebAuthn();
    const verified = await refuseOnError(() =>
      verifyAuthenticationResponse({
        response,
        expectedChallenge: pending.challenge,
        expectedOrigin: origin,
        expectedRPID: rpId,
        requireUserVerification: true,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports,
        },
      }),
    );
    if (!verified.verified) throw passkeyRefused('The passkey’s signature did not verify.');
    // The library refuses a counter that did not move forward; this write refuses a concurrent twin.
    if (!(await this.repository.recordUse(passkey.id, passkey.counter, verified.authenticationInfo.newCounter, this.now()))) {
      throw passkeyRefused('This passkey was just used by another sign-in: try again.');
    }
    return passkey;
  }
}

/** The library throws on every mismatch (origin, challenge, RP ID, counter): the caller sees one refusal. */
async function refuseOnError<T>(verify: () => Promise<T>): Promise<T> {
  try {
    return await verify();
  } catch (error) {
    throw passkeyRefused(`The passkey was refused: ${error instanceof Error ? error.message : String(error)}`);
  }
}
