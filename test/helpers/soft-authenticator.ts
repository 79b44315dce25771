import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator (ES256, attestation "none") for server-level tests: it builds
 * the exact bytes a browser and authenticator would, and lets a test lie about the origin or the
 * counter, which a real browser never does. The Chromium tests use Chrome's virtual authenticator.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16).toString('base64url');
  counter = 0;
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private userHandle = '';

  constructor(private readonly origin: string) {}

  register(options: PublicKeyCredentialCreationOptionsJSON): RegistrationResponseJSON {
    this.userHandle = options.user.id;
    const clientData = this.clientData('webauthn.create', options.challenge, this.origin);
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y ?? '', 'base64url'))],
    ]);
    const credentialId = Buffer.from(this.credentialId, 'base64url');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([this.header(options.rp.id ?? '', 0x45), Buffer.alloc(16), length, credentialId, Buffer.from(isoCBOR.encode(coseKey))]);
    const attestation = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData.toString('base64url'),
        attestationObject: Buffer.from(attestation).toString('base64url'),
        transports: ['internal'],
      },
    };
  }

  /** An assertion; `origin` and `counter` may be forged to check that the server refuses them. */
  assert(options: PublicKeyCredentialRequestOptionsJSON, forged: { origin?: string; counter?: number } = {}): AuthenticationResponseJSON {
    this.counter = forged.counter ?? this.counter + 1;
    const clientData = this.clientData('webauthn.get', options.challenge, forged.origin ?? this.origin);
    const authData = this.header(options.rpId ?? '', 0x05);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientData).digest()]), this.keys.privateKey);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: this.userHandle,
      },
    };
  }

  /** rpIdHash, flags (UP 0x01, UV 0x04, AT 0x40), counter. */
  private header(rpId: string, flags: number): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), counter]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}
