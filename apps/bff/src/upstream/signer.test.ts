import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNobleSigner, publicKeyFromSeed, verifyMessage } from '@settlement/protocol/signing';
import { createNodeSigner } from './signer';

describe('createNodeSigner', () => {
  it('produces signatures byte-identical to the noble signer, which verify strictly', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.string(), (seed, message) => {
        const node = createNodeSigner('k', seed).sign(message);
        expect(node).toBe(createNobleSigner('k', seed).sign(message));
        expect(verifyMessage(publicKeyFromSeed(seed), message, node)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});
