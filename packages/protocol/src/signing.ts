import * as ed from '@noble/ed25519';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { randomBytes } from '@noble/hashes/utils.js';
import { fromBase64, toBase64, toHex, utf8Bytes } from './encoding';
import { timeOrderedHex } from './ids';

/**
 * Request signing of the interface: canonical strings, body hash, Ed25519 over them.
 * Pure and isomorphic; servers that need more throughput can plug a native `Signer`
 * and cross-check it against this one byte for byte.
 */

export type RestCanonicalInput = {
  method: string;
  /** Raw path and query exactly as sent on the wire (never re-encoded). */
  target: string;
  /** Lowercase hex SHA-256 of the exact body bytes, or null when no body bytes are sent. */
  bodyHash: string | null;
  timestamp: string;
  nonce: string;
  keyId: string;
};

export type WsCanonicalInput = { timestamp: string; nonce: string };

export const WS_PATH = '/v1/ws';

export class CanonicalFieldError extends Error {
  override readonly name = 'CanonicalFieldError';
}

function line(field: string, value: string): string {
  // A line break inside a field would let one signed string stand for another request.
  if (/[\r\n]/.test(value)) throw new CanonicalFieldError(`${field} contains a line break`);
  return value;
}

/** The six-line REST canonical string, joined by `\n`, no trailing newline. */
export function restCanonicalString(input: RestCanonicalInput): string {
  return [
    line('method', input.method.toUpperCase()),
    line('target', input.target),
    line('bodyHash', input.bodyHash ?? ''),
    line('timestamp', input.timestamp),
    line('nonce', input.nonce),
    line('keyId', input.keyId),
  ].join('\n');
}

/** The four-line WebSocket handshake value. The six-line REST value is never valid here. */
export function wsCanonicalString(input: WsCanonicalInput): string {
  return [
    'WS_CONNECT',
    WS_PATH,
    line('timestamp', input.timestamp),
    line('nonce', input.nonce),
  ].join('\n');
}

/** Lowercase hex SHA-256 of exact bytes (a string is taken as its UTF-8 bytes). */
export function sha256Hex(bytes: Uint8Array | string): string {
  return toHex(sha256(typeof bytes === 'string' ? utf8Bytes(bytes) : bytes));
}

function ensureSyncHashes(): void {
  ed.hashes.sha512 ??= sha512;
}

export const ED25519_KEY_BYTES = 32;

/** Decodes a standard Base64 32-byte Ed25519 seed or public key; throws a clear error otherwise. */
export function decodeKey32(base64Key: string, what = 'key'): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(base64Key);
  } catch {
    throw new Error(`${what} is not standard padded Base64`);
  }
  if (bytes.length !== ED25519_KEY_BYTES) {
    throw new Error(`${what} must be ${ED25519_KEY_BYTES} bytes, got ${bytes.length}`);
  }
  return bytes;
}

export function publicKeyFromSeed(seed: Uint8Array): Uint8Array {
  ensureSyncHashes();
  return ed.getPublicKey(seed);
}

/**
 * Whether 32 bytes are a public key strict verification can ever accept: a canonical
 * encoding (y < p) of a curve point that is not of small order (RFC 8032 / FIPS 186-5).
 * Servers check this once when a key is registered, then may verify with any strict backend.
 */
export function isStrictEd25519PublicKey(publicKey: Uint8Array): boolean {
  if (publicKey.length !== ED25519_KEY_BYTES) return false;
  try {
    return !ed.Point.fromBytes(publicKey, false).isSmallOrder();
  } catch {
    return false;
  }
}

/** A fresh random 32-byte seed from the platform's CSPRNG. */
export function generateSeed(): Uint8Array {
  return randomBytes(ED25519_KEY_BYTES);
}

/** Signs a message (string as UTF-8) and returns the padded standard Base64 signature. */
export function signMessage(seed: Uint8Array, message: string | Uint8Array): string {
  ensureSyncHashes();
  const bytes = typeof message === 'string' ? utf8Bytes(message) : message;
  return toBase64(ed.sign(bytes, seed));
}

/**
 * Strict verification (RFC 8032 / FIPS 186-5: `zip215: false`). Any malformed input
 * (bad Base64, wrong length, non-canonical point) is a failed verification, never a throw.
 */
export function verifyMessage(
  publicKey: Uint8Array,
  message: string | Uint8Array,
  signatureBase64: string,
): boolean {
  ensureSyncHashes();
  try {
    const signature = fromBase64(signatureBase64);
    if (signature.length !== 64 || publicKey.length !== ED25519_KEY_BYTES) return false;
    const bytes = typeof message === 'string' ? utf8Bytes(message) : message;
    return ed.verify(signature, bytes, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** The one small interface signing goes through, so a native implementation can stand in. */
export type Signer = {
  readonly keyId: string;
  sign(message: string): string;
};

export function createNobleSigner(keyId: string, seed: Uint8Array): Signer {
  const privateSeed = seed.slice();
  return { keyId, sign: (message) => signMessage(privateSeed, message) };
}

export type SignedHeaders = {
  'X-Api-Key-Id': string;
  'X-Api-Timestamp': string;
  'X-Api-Nonce': string;
  'X-Api-Signature': string;
  'X-Api-Body-Hash'?: string;
};

/**
 * A nonce of 32 hex chars: visible ASCII, unique per request, and time-ordered, so the logs
 * that index it by key grow at one end (see ids.ts).
 */
export function generateNonce(): string {
  return timeOrderedHex();
}

export function unixSeconds(now: number = Date.now()): string {
  return String(Math.floor(now / 1000));
}

/** Headers for one REST request, signed over the exact target and body bytes that will be sent. */
export function signRestRequest(
  signer: Signer,
  request: { method: string; target: string; body: Uint8Array | null },
  clock: { now?: number; nonce?: string } = {},
): SignedHeaders {
  const timestamp = unixSeconds(clock.now);
  const nonce = clock.nonce ?? generateNonce();
  const bodyHash = request.body === null ? null : sha256Hex(request.body);
  const signature = signer.sign(
    restCanonicalString({
      method: request.method,
      target: request.target,
      bodyHash,
      timestamp,
      nonce,
      keyId: signer.keyId,
    }),
  );
  const headers: SignedHeaders = {
    'X-Api-Key-Id': signer.keyId,
    'X-Api-Timestamp': timestamp,
    'X-Api-Nonce': nonce,
    'X-Api-Signature': signature,
  };
  if (bodyHash !== null) headers['X-Api-Body-Hash'] = bodyHash;
  return headers;
}

/** Headers for the WebSocket upgrade request, signed over the four-line value. */
export function signWsHandshake(
  signer: Signer,
  clock: { now?: number; nonce?: string } = {},
): SignedHeaders {
  const timestamp = unixSeconds(clock.now);
  const nonce = clock.nonce ?? generateNonce();
  return {
    'X-Api-Key-Id': signer.keyId,
    'X-Api-Timestamp': timestamp,
    'X-Api-Nonce': nonce,
    'X-Api-Signature': signer.sign(wsCanonicalString({ timestamp, nonce })),
  };
}
