import { createHash, verify } from 'node:crypto';
import fc from 'fast-check';
import sodium from 'sodium-native';
import { describe, expect, it } from 'vitest';
import { toBase64 } from '@settlement/protocol';
import {
  generateSeed,
  publicKeyFromSeed,
  restCanonicalString,
  sha256Hex,
  signMessage,
  verifyMessage,
} from '@settlement/protocol/signing';
import { registeredVerifyingKey, verifyEd25519, verifyingKey } from './ed25519';

const L = (1n << 252n) + 27742317777372353535851937790883648493n;

const littleEndian = (bytes: Uint8Array): bigint =>
  bytes.reduceRight((value, byte) => (value << 8n) | BigInt(byte), 0n);

function toLittleEndian32(value: bigint): Buffer {
  const out = Buffer.alloc(32);
  let rest = value;
  for (let i = 0; i < 32; i += 1) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

/** node:crypto alone: the verifier the sandbox used before libsodium, whose answers it keeps. */
function nodeCryptoVerifies(publicKey: Uint8Array, message: string, encoded: string): boolean {
  const signature = Buffer.from(encoded, 'base64');
  return (
    signature.length === 64 &&
    verify(null, Buffer.from(message, 'utf8'), verifyingKey(publicKey).object, signature)
  );
}

describe('verifyEd25519', () => {
  it('answers as node:crypto and strict noble on valid and mutated signatures', () => {
    const seed = generateSeed();
    const publicKey = publicKeyFromSeed(seed);
    const key = verifyingKey(publicKey);
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.nat(63),
        fc.integer({ min: 0, max: 255 }),
        (text, index, flip) => {
          const message = restCanonicalString({
            method: 'POST',
            target: `/api/v1/x?q=${encodeURIComponent(text)}`,
            bodyHash: sha256Hex(text),
            timestamp: '1700000000',
            nonce: 'n',
            keyId: 'k',
          });
          const signature = Buffer.from(signMessage(seed, message), 'base64');
          const mutated = Buffer.from(signature);
          mutated[index] = (mutated[index] ?? 0) ^ flip;
          for (const candidate of [signature, mutated]) {
            const encoded = toBase64(candidate);
            const expected = nodeCryptoVerifies(publicKey, message, encoded);
            expect(verifyEd25519(key, message, encoded)).toBe(expected);
            expect(verifyMessage(publicKey, message, encoded)).toBe(expected);
          }
          expect(verifyEd25519(key, `${message}x`, toBase64(signature))).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a signature whose S is not reduced (s + L), like strict noble', () => {
    const seed = generateSeed();
    const publicKey = publicKeyFromSeed(seed);
    const signature = Buffer.from(signMessage(seed, 'm'), 'base64');
    toLittleEndian32(littleEndian(signature.subarray(32)) + L).copy(signature, 32);
    const encoded = toBase64(signature);
    expect(verifyMessage(publicKey, 'm', encoded)).toBe(false);
    expect(verifyEd25519(verifyingKey(publicKey), 'm', encoded)).toBe(false);
  });

  it('accepts what node:crypto accepts where libsodium alone refuses: a small-order R', () => {
    // The key holder can sign with R the identity point: S = k * a, so [S]B - [k]A is the
    // identity again. OpenSSL accepts it, libsodium refuses every small-order R.
    const seed = generateSeed();
    const publicKey = Buffer.from(publicKeyFromSeed(seed));
    const head = createHash('sha512').update(seed).digest().subarray(0, 32);
    head[0] = (head[0] ?? 0) & 248;
    head[31] = ((head[31] ?? 0) & 127) | 64;
    const a = littleEndian(head);
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    const message = 'small-order R';
    const k =
      littleEndian(
        createHash('sha512').update(identity).update(publicKey).update(message).digest(),
      ) % L;
    const signature = Buffer.concat([identity, toLittleEndian32((k * a) % L)]);

    expect(sodium.crypto_sign_verify_detached(signature, Buffer.from(message), publicKey)).toBe(
      false,
    );
    expect(nodeCryptoVerifies(publicKey, message, toBase64(signature))).toBe(true);
    expect(verifyEd25519(verifyingKey(publicKey), message, toBase64(signature))).toBe(true);
    expect(verifyEd25519(verifyingKey(publicKey), `${message}.`, toBase64(signature))).toBe(false);
  });

  it('refuses a signature that is not padded Base64 of 64 bytes without verifying it', () => {
    const seed = generateSeed();
    const key = verifyingKey(publicKeyFromSeed(seed));
    const encoded = signMessage(seed, 'm');
    expect(verifyEd25519(key, 'm', encoded)).toBe(true);
    expect(verifyEd25519(key, 'm', encoded.replace(/==$/, ''))).toBe(false);
    expect(verifyEd25519(key, 'm', `!${encoded.slice(1)}`)).toBe(false);
    expect(verifyEd25519(key, 'm', '')).toBe(false);
  });
});

describe('registeredVerifyingKey', () => {
  it('parses a registered public key once and verifies with it as a fresh parse does', () => {
    const seed = generateSeed();
    const publicKey = publicKeyFromSeed(seed);
    const first = registeredVerifyingKey(toBase64(publicKey));
    expect(registeredVerifyingKey(toBase64(publicKey))).toBe(first);
    expect(first.object.equals(verifyingKey(publicKey).object)).toBe(true);
    expect(first.raw.equals(Buffer.from(publicKey))).toBe(true);
    expect(verifyEd25519(first, 'digest', signMessage(seed, 'digest'))).toBe(true);
  });
});
