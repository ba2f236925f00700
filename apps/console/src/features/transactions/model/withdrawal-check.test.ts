import { AssetSchema, BalanceSchema, WalletSchema } from '@settlement/protocol';
import { describe, expect, it } from 'vitest';
import { checkWithdrawal, reviewOf } from './withdrawal-check';
import type { WithdrawalInputs } from './withdrawal-check';
import { EMPTY_DRAFT } from './withdrawal-draft';

const NOW = '2026-01-01T00:00:00Z';
const DESTINATION = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const wallet = WalletSchema.parse({
  id: 'wal_1',
  chain: 'tron:nile',
  accountId: 'acc_1',
  accountName: 'Treasury',
  address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
  status: 'ACTIVE',
  createdAt: NOW,
  updatedAt: NOW,
});
const trx = AssetSchema.parse({
  asset: 'TRX',
  name: 'Tron',
  decimals: 6,
  chains: [{ chain: 'tron:nile', enabled: true, contractAddress: null }],
});
const balance = BalanceSchema.parse({
  asset: 'TRX',
  chain: 'tron:nile',
  postedBalance: '10000000',
  availableBalance: '10000000',
  reservedBalance: '0',
});

function inputs(draft: Partial<WithdrawalInputs['draft']>): WithdrawalInputs {
  return {
    wallet,
    catalog: [trx],
    balances: [balance],
    readiness: { isReady: true, reason: null },
    destination: { kind: 'external' },
    addressBook: [],
    generatedReference: 'wd-op-1',
    draft: { ...EMPTY_DRAFT, asset: 'TRX', toAddress: DESTINATION, amount: '2', ...draft },
  };
}

describe('checkWithdrawal', () => {
  it("refuses a client reference by the protocol's own limit and message", () => {
    const given = inputs({ clientReference: 'r'.repeat(129) });
    const check = checkWithdrawal(given);
    expect(check.referenceProblem).toBe('At most 128 characters.');
    expect(check.canReview).toBe(false);
    expect(reviewOf(given, check)).toBeNull();
    expect(
      checkWithdrawal(inputs({ clientReference: 'r'.repeat(128) })).referenceProblem,
    ).toBeNull();
  });

  it('reviews the request the protocol accepts, with the generated reference when left blank', () => {
    const given = inputs({});
    const review = reviewOf(given, checkWithdrawal(given));
    expect(review?.request).toEqual({
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amountAtomic: '2000000',
      clientReference: 'wd-op-1',
    });
    expect(review?.isReferenceGenerated).toBe(true);
  });
});
