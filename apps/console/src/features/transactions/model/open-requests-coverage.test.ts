import { describe, expect, it } from 'vitest';
import { exceedsWithOpenRequests } from './open-requests-coverage';
import type { FeePlan } from './withdrawal-math';

const flatFee: FeePlan = {
  feeAsset: 'TRX',
  feeDecimals: 6,
  feeAtomic: 1_100_000n,
  isFeeLimit: false,
};
const feeLimit: FeePlan = {
  feeAsset: 'TRX',
  feeDecimals: 6,
  feeAtomic: 30_000_000n,
  isFeeLimit: true,
};

describe('exceedsWithOpenRequests', () => {
  it('for a token, is true only when amount plus open requests is over the available balance', () => {
    const base = { isToken: true, fee: feeLimit, availableAtomic: 1_000_000_000n };
    expect(
      exceedsWithOpenRequests({
        ...base,
        amountAtomic: 100_000_000n,
        committed: { amountAtomic: 900_000_000n, count: 1 },
      }),
    ).toBe(false);
    expect(
      exceedsWithOpenRequests({
        ...base,
        amountAtomic: 100_000_001n,
        committed: { amountAtomic: 900_000_000n, count: 1 },
      }),
    ).toBe(true);
  });

  it('for a native transfer, counts its fee and those of the open requests, all from one balance', () => {
    const base = { isToken: false, fee: flatFee, availableAtomic: 10_000_000n };
    // 1 + 1.1 fee, and two open requests of 5.7 in all with 1.1 fee each: exactly 10.
    const exactly = { amountAtomic: 5_700_000n, count: 2 };
    expect(exceedsWithOpenRequests({ ...base, amountAtomic: 1_000_000n, committed: exactly })).toBe(
      false,
    );
    expect(exceedsWithOpenRequests({ ...base, amountAtomic: 1_000_001n, committed: exactly })).toBe(
      true,
    );
  });

  it('is false without an amount or without open requests', () => {
    const base = { isToken: true, fee: feeLimit, availableAtomic: 10n };
    expect(
      exceedsWithOpenRequests({
        ...base,
        amountAtomic: null,
        committed: { amountAtomic: 20n, count: 1 },
      }),
    ).toBe(false);
    expect(
      exceedsWithOpenRequests({
        ...base,
        amountAtomic: 10n,
        committed: { amountAtomic: 0n, count: 0 },
      }),
    ).toBe(false);
  });

  it('is false when the amount alone is over the balance (the coverage check says so)', () => {
    expect(
      exceedsWithOpenRequests({
        isToken: true,
        fee: feeLimit,
        availableAtomic: 10n,
        amountAtomic: 11n,
        committed: { amountAtomic: 5n, count: 1 },
      }),
    ).toBe(false);
  });

  it('compares amounts above 2^53 exactly, to the last atomic unit', () => {
    // As Numbers, 2^53 + 3 rounds to 2^53 + 4 and adding 1 to that changes nothing: a float sum
    // would never exceed, and the last unit would decide nothing.
    const available = 2n ** 53n + 3n;
    const base = { isToken: true, fee: feeLimit, availableAtomic: available };
    expect(
      exceedsWithOpenRequests({
        ...base,
        amountAtomic: 1n,
        committed: { amountAtomic: available - 1n, count: 1 },
      }),
    ).toBe(false);
    expect(
      exceedsWithOpenRequests({
        ...base,
        amountAtomic: 1n,
        committed: { amountAtomic: available, count: 1 },
      }),
    ).toBe(true);
  });
});
