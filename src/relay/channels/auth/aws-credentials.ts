import type * as Sha256Module from '@aws-crypto/sha256-js';
import type * as SignatureV4Module from '@smithy/signature-v4';
import { requireOnDemand } from '../../../core/require-on-demand.ts';

/** How a Bedrock channel secret authenticates: SigV4 keys, or a Bedrock API key sent as a bearer. */
export type AwsCredential = { kind: 'sigv4'; accessKeyId: string; secretAccessKey: string; sessionToken?: string } | { kind: 'bearer'; token: string };

/**
 * `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]` is a SigV4 key pair; anything else is a
 * Bedrock API key. Access key ids are upper-case letters and digits, and Bedrock API keys are
 * base64 (no colon), so the two cannot be confused.
 */
export function parseAwsCredential(secret: string): AwsCredential {
  const parts = secret.split(':');
  const [accessKeyId, secretAccessKey, ...session] = parts;
  if (parts.length >= 2 && accessKeyId !== undefined && secretAccessKey !== undefined && /^[A-Z0-9]{16,128}$/.test(accessKeyId)) {
    const sessionToken = session.join(':');
    return { kind: 'sigv4', accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
  }
  return { kind: 'bearer', token: secret };
}

export interface SignInput {
  url: URL;
  headers: Record<string, string>;
  body: string;
  region: string;
  service: string;
  credential: Extract<AwsCredential, { kind: 'sigv4' }>;
  /** Signing time (tests pin it); now when absent. */
  signingDate?: Date;
}

/**
 * Signs a POST with AWS Signature Version 4. Returns the headers to send: the given ones plus
 * `authorization`, `x-amz-date` and (with a session) `x-amz-security-token`; `host` is left to
 * the HTTP client, which derives the same value from the URL.
 */
export async function signAwsRequest(input: SignInput): Promise<Record<string, string>> {
  // Loaded by the first Bedrock request, not at start-up: most gateways have no Bedrock channel.
  const { SignatureV4 } = requireOnDemand('@smithy/signature-v4') as typeof SignatureV4Module;
  const { Sha256 } = requireOnDemand('@aws-crypto/sha256-js') as typeof Sha256Module;
  const signer = new SignatureV4({
    service: input.service,
    region: input.region,
    sha256: Sha256,
    credentials: {
      accessKeyId: input.credential.accessKeyId,
      secretAccessKey: input.credential.secretAccessKey,
      ...(input.credential.sessionToken ? { sessionToken: input.credential.sessionToken } : {}),
    },
  });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: input.url.protocol,
      hostname: input.url.hostname,
      ...(input.url.port ? { port: Number(input.url.port) } : {}),
      path: input.url.pathname,
      query: Object.fromEntries(input.url.searchParams),
      headers: { ...input.headers, host: input.url.host },
      body: input.body,
    },
    input.signingDate ? { signingDate: input.signingDate } : {},
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) {
    if (name.toLowerCase() !== 'host') headers[name.toLowerCase()] = String(value);
  }
  return headers;
}
