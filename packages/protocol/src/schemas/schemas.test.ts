import { describe, expect, it } from 'vitest';
import { decimalsOf, isAssetEnabledOn, type Asset } from './asset';
import { chainReadiness, MpcStatusSchema, type MpcStatus } from './mpc';
import { isStatusRegression, isTerminalStatus, TransactionSchema } from './transaction';
import { WalletSchema } from './wallet';

const catalog: Asset[] = [
  {
    asset: 'USDT',
    name: 'Tether USD',
    decimals: 6,
    chains: [
      { chain: 'tron:nile', enabled: true, contractAddress: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' },
      {
        chain: 'tron:mainnet',
        enabled: false,
        contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      },
    ],
  },
];

const ready: MpcStatus = {
  orgId: 'org_1',
  keyId: 'key_1',
  keyStatus: 'ACTIVE',
  coSigner: { status: 'ONLINE', lastSeenAt: '2026-11-22T10:00:00Z' },
  chains: [
    { chain: 'tron:nile', ready: true, reason: null },
    { chain: 'tron:mainnet', ready: false, reason: 'Not enabled for this organization.' },
  ],
};

describe('asset catalog helpers', () => {
  it('read decimals and per-chain enablement from the catalog', () => {
    expect(decimalsOf(catalog, 'USDT')).toBe(6);
    expect(decimalsOf(catalog, 'BTC')).toBeNull();
    expect(isAssetEnabledOn(catalog, 'USDT', 'tron:nile')).toBe(true);
    expect(isAssetEnabledOn(catalog, 'USDT', 'tron:mainnet')).toBe(false);
    expect(isAssetEnabledOn(catalog, 'BTC', 'tron:nile')).toBe(false);
  });
});

describe('chainReadiness', () => {
  it('is ready only with an active key, an online Co-Signer and a ready chain', () => {
    expect(MpcStatusSchema.parse(ready)).toEqual(ready);
    expect(chainReadiness(ready, 'tron:nile')).toEqual({ isReady: true, reason: null });
    expect(chainReadiness(ready, 'tron:mainnet').reason).toMatch(/Not enabled/);
    expect(chainReadiness({ ...ready, keyStatus: 'PROVISIONING' }, 'tron:nile').reason).toMatch(
      /MPC key/,
    );
    expect(
      chainReadiness({ ...ready, coSigner: { status: 'OFFLINE', lastSeenAt: null } }, 'tron:nile')
        .reason,
    ).toMatch(/offline/);
    expect(chainReadiness({ ...ready, chains: [] }, 'tron:nile').reason).toMatch(/not ready/);
  });
});

describe('resource schemas', () => {
  it('keep unknown fields (additive evolution) and check enums', () => {
    const wallet = {
      id: 'wal_1',
      chain: 'tron:nile',
      accountId: 'acc_1',
      accountName: 'Ops',
      address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
      status: 'ACTIVE',
      createdAt: '2026-11-22T10:00:00.000Z',
      updatedAt: '2026-11-22T10:00:00.000Z',
      label: 'future',
    };
    expect(WalletSchema.parse(wallet)).toHaveProperty('label', 'future');
    expect(WalletSchema.safeParse({ ...wallet, status: 'GONE' }).success).toBe(false);
    expect(
      TransactionSchema.safeParse({
        id: 'tx_1',
        walletId: 'wal_1',
        account: { id: 'acc_1' },
        type: 'WITHDRAWAL',
        status: 'PENDING',
        chain: 'tron:nile',
        asset: 'TRX',
        amountAtomic: '1',
        onChainDetails: null,
        createdAt: '2026-11-22T10:00:00Z',
        updatedAt: '2026-11-22T10:00:00Z',
      }).success,
    ).toBe(true);
  });

  it('names CONFIRMED, FAILED and FAILED_ON_CHAIN terminal, PENDING not', () => {
    expect(isTerminalStatus('FAILED_ON_CHAIN')).toBe(true);
    expect(isTerminalStatus('PENDING')).toBe(false);
  });

  it('calls any change away from a terminal status a regression, and nothing else', () => {
    for (const terminal of ['CONFIRMED', 'FAILED', 'FAILED_ON_CHAIN']) {
      expect(isStatusRegression(terminal, 'PENDING')).toBe(true);
      expect(isStatusRegression(terminal, terminal)).toBe(false);
      expect(isStatusRegression('PENDING', terminal)).toBe(false);
    }
    expect(isStatusRegression('CONFIRMED', 'FAILED')).toBe(true);
    expect(isStatusRegression('PENDING', 'PENDING')).toBe(false);
  });
});
