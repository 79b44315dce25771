/** Table shapes of sign-in factors and links (migrations 024-identity, 026-passkeys), as Kysely sees them. */
export interface TotpFactorsTable {
  owner_kind: string;
  owner_id: string;
  /** SecretBox-sealed base32 secret. */
  secret_sealed: string;
  /** JSON array of SHA-256 hex digests of the unused recovery codes. */
  recovery_hashes: string;
  confirmed_at: number | null;
  last_step: number;
  created_at: number;
}

export interface OneTimeTokensTable {
  token_hash: string;
  purpose: string;
  email: string;
  payload: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SignInProvidersTable {
  name: string;
  type: string;
  issuer: string;
  client_id: string;
  /** SecretBox-sealed client secret. */
  client_secret_sealed: string;
  /** JSON array of `portal` / `console`. */
  audiences: string;
  api_base: string | null;
  created_at: number;
  updated_at: number;
}

export interface PasskeysTable {
  id: string;
  /** The WebAuthn credential id (base64url), as the authenticator names it. */
  credential_id: string;
  owner_kind: string;
  owner_id: string;
  name: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of the authenticator's transports (usb, internal, hybrid…). */
  transports: string;
  backed_up: number;
  created_at: number;
  last_used_at: number | null;
}
