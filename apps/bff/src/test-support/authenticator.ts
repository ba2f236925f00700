import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationCredential,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
  RegistrationCredential,
} from '@settlement/protocol';

/**
 * Test support (not a test): a software passkey authenticator on node:crypto (ES256), giving
 * real attestation ("none") and assertion responses; CBOR through the library the server's
 * WebAuthn verification itself uses. It tracks its signature counter, which a test may rewind
 * to present a cloned authenticator.
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const sha256 = (data: Uint8Array | string) =>
  new Uint8Array(createHash('sha256').update(data).digest());
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  if (!jwk.x || !jwk.y) throw new Error('not an EC key');
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y, 'base64url'))],
    ]),
  );
}

export type SoftwareAuthenticator = {
  credentialId: string;
  counter: number;
  register(
    options: PasskeyCreationOptions,
    origin: string,
    overrides?: { isUserVerified?: boolean },
  ): RegistrationCredential;
  assert(
    options: PasskeyRequestOptions,
    origin: string,
    overrides?: { isUserVerified?: boolean; counter?: number },
  ): AuthenticationCredential;
};

export function createSoftwareAuthenticator(rpId: string): SoftwareAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(16);
  const rpIdHash = sha256(rpId);
  let userHandle = new Uint8Array();

  const clientData = (type: string, challenge: string, origin: string) =>
    new Uint8Array(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));

  const authenticator: SoftwareAuthenticator = {
    credentialId: b64url(credentialId),
    counter: 0,
    register(options, origin, overrides = {}) {
      userHandle = new Uint8Array(Buffer.from(options.user.id, 'base64url'));
      const flags = FLAG_UP | FLAG_AT | (overrides.isUserVerified === false ? 0 : FLAG_UV);
      const idLength = new Uint8Array([credentialId.length >> 8, credentialId.length & 0xff]);
      const authData = concat(
        rpIdHash,
        new Uint8Array([flags]),
        u32(authenticator.counter),
        new Uint8Array(16),
        idLength,
        credentialId,
        coseKey(publicKey),
      );
      const attStmt = new Map<string, never>();
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Uint8Array | Map<string, never>>([
          ['fmt', 'none'],
          ['attStmt', attStmt],
          ['authData', authData],
        ]),
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    assert(options, origin, overrides = {}) {
      authenticator.counter = overrides.counter ?? authenticator.counter + 1;
      const flags = FLAG_UP | (overrides.isUserVerified === false ? 0 : FLAG_UV);
      const authData = concat(rpIdHash, new Uint8Array([flags]), u32(authenticator.counter));
      const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
      const signature = sign('sha256', concat(authData, sha256(clientDataJSON)), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(new Uint8Array(signature)),
          userHandle: b64url(userHandle),
        },
        clientExtensionResults: {},
      };
    },
  };
  return authenticator;
}
