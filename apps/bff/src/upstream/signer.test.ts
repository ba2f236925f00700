import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNobleSigner, publicKeyFromSeed, verifyMessage } from '@settlement/protocol/signing';
import { createSodiumSigner } from './signer';

describe('createSodiumSigner', () => {
  it('produces signatures byte-identical to the noble signer, which verify strictly', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.string(), (seed, message) => {
        const signature = createSodiumSigner('k', seed).sign(message);
        expect(signature).toBe(createNobleSigner('k', seed).sign(message));
        expect(verifyMessage(publicKeyFromSeed(seed), message, signature)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('signs RFC 8032 test vector 1 (the empty message) to its published signature', () => {
    const seed = Buffer.from(
      '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
      'hex',
    );
    expect(Buffer.from(createSodiumSigner('k', seed).sign(''), 'base64').toString('hex')).toBe(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    );
  });

  it('refuses a seed that is not 32 bytes', () => {
    expect(() => createSodiumSigner('k', new Uint8Array(31))).toThrow('seed must be 32 bytes');
  });
});
