import type { Wallet } from '@settlement/protocol';
import { describe, expect, it } from 'vitest';
import { classifyDestination } from './destination';

const NOW = '2026-01-01T00:00:00Z';
const wallet = (id: string, chain: Wallet['chain'], address: string): Wallet => ({
  id,
  chain,
  address,
  accountId: `acc_${id}`,
  accountName: `Account ${id}`,
  status: 'ACTIVE',
  createdAt: NOW,
  updatedAt: NOW,
});
const source = wallet('src', 'tron:nile', 'TSOURCE');
const ADDRESS = 'TDEST';
const base = { address: ADDRESS, isAddressValid: true, source, isLookupFailed: false };

describe('classifyDestination', () => {
  it('is internal only for a wallet of ours on the same chain', () => {
    const nile = wallet('n', 'tron:nile', ADDRESS);
    expect(classifyDestination({ ...base, matches: [nile] })).toEqual({
      kind: 'internal',
      wallet: nile,
    });
  });

  it('names a wallet of ours on another chain as the wrong network, never internal', () => {
    const mainnet = wallet('m', 'tron:mainnet', ADDRESS);
    expect(classifyDestination({ ...base, matches: [mainnet] })).toEqual({
      kind: 'other-chain',
      wallet: mainnet,
    });
    // The same address on both chains: the same-chain wallet receives it.
    const nile = wallet('n', 'tron:nile', ADDRESS);
    expect(classifyDestination({ ...base, matches: [mainnet, nile] }).kind).toBe('internal');
  });

  it('is the source itself, external, checking, unchecked or none as the facts say', () => {
    expect(classifyDestination({ ...base, address: 'TSOURCE', matches: [source] }).kind).toBe(
      'source',
    );
    expect(
      classifyDestination({ ...base, matches: [wallet('x', 'tron:nile', 'TDESTX')] }).kind,
    ).toBe('external');
    expect(classifyDestination({ ...base, matches: null }).kind).toBe('checking');
    expect(classifyDestination({ ...base, matches: null, isLookupFailed: true }).kind).toBe(
      'unchecked',
    );
    expect(classifyDestination({ ...base, isAddressValid: false, matches: [] }).kind).toBe('none');
  });
});
