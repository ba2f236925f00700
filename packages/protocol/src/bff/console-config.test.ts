import { describe, expect, it } from 'vitest';
import { explorerUrl } from './console-config';
import { defaultWalletLabel, shortAddress } from './wallet-labels';

const explorers = [
  { chain: 'tron:mainnet' as const, baseUrl: 'https://tronscan.org' },
  { chain: 'tron:nile' as const, baseUrl: 'https://nile.tronscan.org/' },
];

describe('explorerUrl', () => {
  it('links a tx hash on Tronscan for mainnet and an address on Nile Tronscan for Nile', () => {
    expect(explorerUrl(explorers, 'tron:mainnet', 'transaction', 'ab12')).toBe(
      'https://tronscan.org/#/transaction/ab12',
    );
    expect(explorerUrl(explorers, 'tron:nile', 'address', 'TXyz')).toBe(
      'https://nile.tronscan.org/#/address/TXyz',
    );
  });

  it('gives no link for a chain without an explorer, or an empty value', () => {
    expect(explorerUrl(explorers.slice(0, 1), 'tron:nile', 'address', 'TXyz')).toBeNull();
    expect(explorerUrl(explorers, 'tron:nile', 'transaction', '')).toBeNull();
  });

  it('encodes the value so it cannot leave its path segment', () => {
    expect(explorerUrl(explorers, 'tron:mainnet', 'address', '../x?y#z')).toBe(
      'https://tronscan.org/#/address/..%2Fx%3Fy%23z',
    );
  });
});

describe('wallet names', () => {
  it('defaults to account name, chain and the last 4 characters of the address', () => {
    expect(
      defaultWalletLabel({
        accountName: 'Payouts',
        chain: 'tron:nile',
        address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
      }),
    ).toBe('Payouts · Nile · YqeL');
  });

  it('shortens an address to both ends', () => {
    expect(shortAddress('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL')).toBe('TNPeea…YqeL');
    expect(shortAddress('short')).toBe('short');
  });
});
