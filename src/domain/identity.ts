/** Who a sign-in factor or a one-time link belongs to: an account holder (portal) or an admin (console). */
export type IdentityOwnerKind = 'user' | 'admin';

export interface IdentityOwner {
  kind: IdentityOwnerKind;
  id: string;
}

/** A TOTP factor (issue 29). The secret is sealed at rest by the store; recovery codes are kept as SHA-256 only. */
export interface TotpFactor {
  owner: IdentityOwner;
  /** Base32 secret, decrypted by the store for the identity layer; never returned by the API after enrolment. */
  secret: string;
  /** SHA-256 (hex) of each unused recovery code. */
  recoveryHashes: string[];
  /** Null until the first code is verified: an unconfirmed factor is not asked for at sign-in. */
  confirmedAt: number | null;
  /** The last TOTP time step accepted: a code is never accepted twice (replay). */
  lastStep: number;
  createdAt: number;
}

/** What a one-time link (e-mail verification, password reset) is for. */
export type OneTimePurpose = 'sign-up' | 'password-reset';

/** A one-time link's record; the link's token itself is never stored, only its SHA-256. */
export interface OneTimeToken {
  tokenHash: string;
  purpose: OneTimePurpose;
  email: string;
  /** JSON the purpose needs (sign-up: the password hash and referral code; reset: the user id). */
  payload: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export type SignInProviderType = 'oidc' | 'github';
export type SignInAudience = 'portal' | 'console';

/** An OIDC or GitHub OAuth provider people may sign in with; the client secret is sealed at rest. */
export interface SignInProvider {
  name: string;
  type: SignInProviderType;
  /** OIDC: the issuer URL (discovery). GitHub: https://github.com (informational). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  audiences: SignInAudience[];
  /** GitHub only: the API base (https://api.github.com), overridable for GitHub Enterprise or tests. */
  apiBase: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A passkey (WebAuthn credential) of an account holder or an admin: its public key only. */
export interface Passkey {
  /** Our id, used in the API's paths. */
  id: string;
  /** The authenticator's credential id (base64url). */
  credentialId: string;
  owner: IdentityOwner;
  /** What its owner calls it ("work laptop"). */
  name: string;
  /** COSE public key (base64url). */
  publicKey: string;
  /** The authenticator's signature counter as last seen; 0 for authenticators that do not count. */
  counter: number;
  transports: string[];
  /** Synced by its platform (iCloud Keychain, Google Password Manager) rather than bound to one device. */
  backedUp: boolean;
  createdAt: number;
  lastUsedAt: number | null;
}
