import { describe, expect, it } from 'vitest';
import { generateSeed, isStrictEd25519PublicKey, publicKeyFromSeed } from './signing';

describe('isStrictEd25519PublicKey', () => {
  it('accepts the public key of a fresh seed', () => {
    expect(isStrictEd25519PublicKey(publicKeyFromSeed(generateSeed()))).toBe(true);
  });

  it('rejects the identity point, a small-order key', () => {
    const identity = new Uint8Array(32);
    identity[0] = 1;
    expect(isStrictEd25519PublicKey(identity)).toBe(false);
  });

  it('rejects a non-canonical encoding (y >= p) and wrong lengths', () => {
    const nonCanonical = new Uint8Array(32).fill(0xff);
    nonCanonical[31] = 0x7f;
    expect(isStrictEd25519PublicKey(nonCanonical)).toBe(false);
    expect(isStrictEd25519PublicKey(new Uint8Array(31))).toBe(false);
  });
});
