import type { MpcStatus } from '@settlement/protocol';
import { describe, expect, it } from 'vitest';
import { defaultChain } from './default-chain';

const status = (ready: Record<string, boolean>): MpcStatus => ({
  orgId: 'org',
  keyId: 'k',
  keyStatus: 'ACTIVE',
  coSigner: { status: 'ONLINE', lastSeenAt: '2026-01-01T00:00:00Z' },
  chains: Object.entries(ready).map(([chain, isReady]) => ({
    chain: chain as MpcStatus['chains'][number]['chain'],
    ready: isReady,
    reason: isReady ? null : `${chain} is not enabled for this organization.`,
  })),
});

describe('defaultChain', () => {
  const both = ['tron:mainnet', 'tron:nile'];

  it('proposes the ready chain, whichever it is', () => {
    expect(defaultChain(status({ 'tron:mainnet': true, 'tron:nile': false }), both)).toBe(
      'tron:mainnet',
    );
    expect(defaultChain(status({ 'tron:mainnet': false, 'tron:nile': true }), both)).toBe(
      'tron:nile',
    );
  });

  it('with both ready, or none, or the status still loading, proposes the testnet', () => {
    expect(defaultChain(status({ 'tron:mainnet': true, 'tron:nile': true }), both)).toBe(
      'tron:nile',
    );
    expect(defaultChain(status({ 'tron:mainnet': false, 'tron:nile': false }), both)).toBe(
      'tron:nile',
    );
    expect(defaultChain(undefined, both)).toBe('tron:nile');
    expect(defaultChain(undefined, ['tron:mainnet'])).toBe('tron:mainnet');
    expect(defaultChain(undefined, [])).toBeNull();
  });
});
