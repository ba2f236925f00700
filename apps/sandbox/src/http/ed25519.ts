import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import sodium from 'sodium-native';
import { fromBase64 } from '@settlement/protocol';

/** A 64-byte signature in standard padded Base64: the only form either verifier is given. */
export const SIGNATURE_PATTERN = /^[A-Za-z0-9+/]{86}==$/;
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A public key in the two forms its verifiers take: raw bytes, and a parsed node:crypto key. */
export type VerifyingKey = { raw: Buffer; object: KeyObject };

/** A raw 32-byte Ed25519 public key, parsed for verification (parse once, verify often). */
export function verifyingKey(publicKey: Uint8Array): VerifyingKey {
  const raw = Buffer.from(publicKey);
  return {
    raw,
    object: createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, raw]),
      format: 'der',
      type: 'spki',
    }),
  };
}

/**
 * The verifying key of a registered public key (standard Base64), parsed once per key: parsing
 * (createPublicKey) cost as much as the verification itself when the Co-Signer's share was
 * checked with a key parsed per message. Bounded by the keys registered.
 */
const registered = new Map<string, VerifyingKey>();
export function registeredVerifyingKey(publicKeyBase64: string): VerifyingKey {
  let key = registered.get(publicKeyBase64);
  if (key === undefined) {
    key = verifyingKey(fromBase64(publicKeyBase64));
    registered.set(publicKeyBase64, key);
  }
  return key;
}

/**
 * Strict Ed25519 verification of a UTF-8 message against a padded Base64 signature, with
 * exactly node:crypto's (OpenSSL's) answers, at libsodium's speed for the signatures that verify.
 *
 * Both compute the cofactorless equation over the same hash and compare R byte for byte, and
 * both refuse an S that is not reduced; libsodium also refuses a small-order R, which OpenSSL
 * accepts. So what libsodium accepts OpenSSL accepts, and only a refusal is asked again of
 * node:crypto. libsodium's check costs about half of node:crypto's one-shot EVP call (64-83 us
 * against 138-150 us here), and every request and Co-Signer share the sandbox takes is one.
 */
export function verifyEd25519(
  key: VerifyingKey,
  message: string,
  signatureBase64: string,
): boolean {
  if (!SIGNATURE_PATTERN.test(signatureBase64)) return false;
  const signature = Buffer.from(signatureBase64, 'base64');
  const bytes = Buffer.from(message, 'utf8');
  if (sodium.crypto_sign_verify_detached(signature, bytes, key.raw)) return true;
  return verify(null, bytes, key.object, signature);
}
