import { describe, expect, it } from 'vitest';
import { fundsOutcome } from './funds-outcome';
import {
  confirmedTrx,
  failedBeforeBroadcast,
  pendingTrx,
  revertedUsdt,
} from '../transaction-fixtures';

describe('fundsOutcome', () => {
  it('FAILED before broadcast: nothing debited, no fee, amount and fee reserve returned', () => {
    expect(fundsOutcome(failedBeforeBroadcast)).toEqual({
      isAmountDebited: false,
      feeSpentAtomic: 0n,
      feeAsset: 'TRX',
      assets: [
        {
          asset: 'TRX',
          reservedAtomic: 21_100_000n,
          heldAtomic: 0n,
          spentAtomic: 0n,
          returnedAtomic: 21_100_000n,
        },
      ],
    });
  });

  it('FAILED_ON_CHAIN: the amount returned, the burned fee spent, the unused reserve returned', () => {
    const outcome = fundsOutcome(revertedUsdt);
    expect(outcome?.isAmountDebited).toBe(false);
    expect(outcome?.feeSpentAtomic).toBe(13_450_000n);
    expect(outcome?.assets.map((a) => [a.asset, a.returnedAtomic])).toEqual([
      ['USDT', 250_500_000n],
      ['TRX', 16_550_000n],
    ]);
  });

  it('CONFIRMED in the fee asset: the amount debited and only the rest counted as fee', () => {
    const outcome = fundsOutcome(confirmedTrx);
    expect(outcome?.isAmountDebited).toBe(true);
    expect(outcome?.feeSpentAtomic).toBe(1_100_000n);
    expect(outcome?.assets[0]?.returnedAtomic).toBe(0n);
  });

  it('PENDING: everything still held, nothing spent or returned', () => {
    const outcome = fundsOutcome(pendingTrx);
    expect(outcome?.isAmountDebited).toBe(false);
    expect(outcome?.feeSpentAtomic).toBe(0n);
    expect(outcome?.assets[0]).toMatchObject({ heldAtomic: 21_100_000n, returnedAtomic: 0n });
  });

  it('has nothing to say about an incoming transaction', () => {
    expect(fundsOutcome({ ...confirmedTrx, type: 'DEPOSIT', direction: 'CREDIT' })).toBeNull();
  });
});
