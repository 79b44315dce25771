import { createHash } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

export interface SigV4Refusal {
  status: number;
  errorType: string;
  message: string;
}

const AUTH_PATTERN = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/**
 * Checks a request's AWS Signature Version 4 the way AWS does: recompute the signature from the
 * secret behind the presented access key, over the method, path, query, signed headers and the
 * body's hash, and compare. Refusals use AWS's own error types and messages.
 */
export async function verifySigV4(input: {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: string;
  secrets: Record<string, string>;
  service: string;
  now: number;
}): Promise<SigV4Refusal | undefined> {
  const authorization = input.headers.authorization;
  if (authorization === undefined) return { status: 403, errorType: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const match = AUTH_PATTERN.exec(authorization);
  if (match === null) {
    return {
      status: 403,
      errorType: 'IncompleteSignatureException',
      message: `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters.`,
    };
  }
  const [, accessKeyId, date, region, service, signedHeaderList, signature] = match as unknown as string[];
  const secret = input.secrets[accessKeyId!];
  if (secret === undefined) return { status: 403, errorType: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  if (service !== input.service) {
    return { status: 403, errorType: 'InvalidSignatureException', message: `Credential should be scoped to correct service: '${input.service}'.` };
  }
  const amzDate = input.headers['x-amz-date'];
  if (amzDate === undefined || !amzDate.startsWith(date!)) {
    return { status: 403, errorType: 'IncompleteSignatureException', message: "Date must be in ISO-8601 'basic format'." };
  }
  const signingDate = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  if (Math.abs(input.now - signingDate.getTime()) > 5 * 60_000) {
    return { status: 403, errorType: 'InvalidSignatureException', message: 'Signature expired: the request time is too far from the server time.' };
  }
  const signedNames = signedHeaderList!.split(';');
  const headers: Record<string, string> = {};
  for (const name of signedNames) {
    const value = input.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  // A signed payload hash is recomputed from the body that arrived, so a body changed after
  // signing fails the signature instead of riding on the sender's own hash.
  if (headers['x-amz-content-sha256'] !== undefined && headers['x-amz-content-sha256'] !== 'UNSIGNED-PAYLOAD') {
    headers['x-amz-content-sha256'] = createHash('sha256').update(input.rawBody, 'utf8').digest('hex');
  }
  const sessionToken = input.headers['x-amz-security-token'];
  const signer = new SignatureV4({
    service: service!,
    region: region!,
    sha256: Sha256,
    credentials: { accessKeyId: accessKeyId!, secretAccessKey: secret, ...(sessionToken ? { sessionToken } : {}) },
  });
  const [hostname, port] = (input.headers.host ?? '').split(':');
  const expected = await signer.sign(
    {
      method: input.method,
      protocol: 'http:',
      hostname: hostname ?? '',
      ...(port ? { port: Number(port) } : {}),
      path: input.path,
      query: input.query,
      headers,
      body: input.rawBody,
    },
    { signingDate, unsignableHeaders: new Set(Object.keys(input.headers).filter((name) => !signedNames.includes(name))) },
  );
  const expectedSignature = /Signature=([0-9a-f]{64})/.exec(String(expected.headers.authorization))?.[1];
  if (expectedSignature !== signature) {
    return {
      status: 403,
      errorType: 'InvalidSignatureException',
      message:
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    };
  }
  return undefined;
}
