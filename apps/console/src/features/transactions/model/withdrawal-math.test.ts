import type { Asset } from '@settlement/protocol';
import { describe, expect, it } from 'vitest';
import {
  coverage,
  feePlan,
  maxAmount,
  nativeAssetOf,
  parseAmount,
  parseFeeLimit,
} from './withdrawal-math';

const TRX: Asset = {
  asset: 'TRX',
  name: 'Tron',
  decimals: 6,
  chains: [{ chain: 'tron:nile', enabled: true, contractAddress: null }],
};
const USDT: Asset = {
  asset: 'USDT',
  name: 'Tether',
  decimals: 6,
  chains: [
    { chain: 'tron:nile', enabled: true, contractAddress: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' },
  ],
};

describe('parseAmount', () => {
  it('converts display units to atomic exactly, far beyond float precision', () => {
    expect(parseAmount('12.5', 6)).toEqual({ atomic: 12_500_000n, problem: null });
    expect(parseAmount('123456789012345678.123456', 6).atomic).toBe(123456789012345678123456n);
  });

  it('explains bad input and treats empty as "no amount yet"', () => {
    expect(parseAmount('', 6)).toEqual({ atomic: null, problem: null });
    expect(parseAmount('1.1234567', 6).problem).toMatch(/6 decimal places/);
    expect(parseAmount('-1', 6).problem).toMatch(/without sign/);
    expect(parseAmount('1e3', 6).problem).toBeTruthy();
    expect(parseAmount('0', 6).problem).toMatch(/greater than zero/);
  });
});

describe('fees and Max', () => {
  it('a native TRX transfer leaves 1.1 TRX for the fee', () => {
    const fee = feePlan({ isToken: false, nativeAsset: TRX, feeLimitAtomic: null });
    expect(fee.feeAtomic).toBe(1_100_000n);
    expect(maxAmount({ isToken: false, availableAtomic: 10_000_000n, fee })).toBe(8_900_000n);
    expect(maxAmount({ isToken: false, availableAtomic: 1_000_000n, fee })).toBe(0n);
  });

  it('a TRC-20 transfer can send its whole balance; the fee limit (default 30 TRX) comes from TRX', () => {
    const fee = feePlan({ isToken: true, nativeAsset: TRX, feeLimitAtomic: null });
    expect(fee).toMatchObject({ feeAtomic: 30_000_000n, feeAsset: 'TRX', isFeeLimit: true });
    expect(maxAmount({ isToken: true, availableAtomic: 5_000_000n, fee })).toBe(5_000_000n);
    const tight = coverage({
      isToken: true,
      amountAtomic: 5_000_000n,
      availableAtomic: 5_000_000n,
      nativeAvailableAtomic: 29_000_000n,
      fee,
      decimals: 6,
      asset: 'USDT',
    });
    expect(tight.isCovered).toBe(false);
    expect(tight.problem).toMatch(/fee limit of 30 TRX/);
  });

  it('coverage counts amount plus fee for the native asset', () => {
    const fee = feePlan({ isToken: false, nativeAsset: TRX, feeLimitAtomic: null });
    const base = {
      isToken: false,
      availableAtomic: 10_000_000n,
      nativeAvailableAtomic: 10_000_000n,
      fee,
      decimals: 6,
      asset: 'TRX',
    };
    expect(coverage({ ...base, amountAtomic: 8_900_000n }).isCovered).toBe(true);
    expect(coverage({ ...base, amountAtomic: 8_900_001n }).problem).toMatch(/only 10 is available/);
  });

  it('fee limits must be within 1 and 15,000 TRX', () => {
    expect(parseFeeLimit('', 6)).toEqual({ atomic: null, problem: null });
    expect(parseFeeLimit('50', 6).atomic).toBe(50_000_000n);
    expect(parseFeeLimit('0.5', 6).problem).toMatch(/between 1 and 15,000/);
    expect(parseFeeLimit('15000.000001', 6).problem).toMatch(/between/);
  });

  it('finds the native asset of a chain in the catalog', () => {
    expect(nativeAssetOf([USDT, TRX], 'tron:nile')?.asset).toBe('TRX');
    expect(nativeAssetOf([USDT], 'tron:nile')).toBeNull();
  });
});
