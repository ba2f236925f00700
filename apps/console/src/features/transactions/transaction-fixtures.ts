import type { BalanceEffect, Transaction } from '@settlement/protocol';
import { screen } from '@testing-library/react';

/** Test support: transactions shaped as the sandbox returns them, with their balance effects. */

const AT = '2025-01-01T00:00:00.000Z';

function effect(
  kind: BalanceEffect['kind'],
  asset: string,
  postedDeltaAtomic: string,
  reservedDeltaAtomic: string,
): BalanceEffect {
  return {
    walletId: 'wal_1',
    accountId: 'acc_1',
    asset,
    kind,
    postedDeltaAtomic,
    reservedDeltaAtomic,
    at: AT,
  };
}

function base(overrides: Partial<Transaction>): Transaction {
  return {
    id: 'tx_1',
    walletId: 'wal_1',
    account: { id: 'acc_1', name: 'Treasury' },
    type: 'WITHDRAWAL',
    status: 'PENDING',
    chain: 'tron:nile',
    asset: 'TRX',
    amountAtomic: '20000000',
    signedAmountAtomic: '-20000000',
    direction: 'DEBIT',
    onChainDetails: null,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

const trxFee = (actualFeeAtomic: string | null) => ({
  asset: 'TRX',
  estimatedFeeAtomic: '1100000',
  reservedFeeAtomic: '1100000',
  actualFeeAtomic,
  feeLimitAtomic: null,
});

/** 20 TRX, 1.1 TRX fee reserved, rejected before broadcast: everything released. */
export const failedBeforeBroadcast = base({
  id: 'tx_failed',
  status: 'FAILED',
  failureCode: 'BROADCAST_REJECTED',
  networkFeeSummary: trxFee(null),
  balanceEffects: [
    effect('RESERVE', 'TRX', '0', '21100000'),
    effect('RELEASE', 'TRX', '0', '-21100000'),
  ],
});

/** 20 TRX, confirmed: amount and 1.1 TRX fee debited. */
export const confirmedTrx = base({
  id: 'tx_confirmed',
  status: 'CONFIRMED',
  networkFeeSummary: trxFee('1100000'),
  balanceEffects: [
    effect('RESERVE', 'TRX', '0', '21100000'),
    effect('POST', 'TRX', '-21100000', '-21100000'),
  ],
});

/** 250.5 USDT with a 30 TRX fee limit, reverted on chain: 13.45 TRX burned, the rest back. */
export const revertedUsdt = base({
  id: 'tx_reverted',
  status: 'FAILED_ON_CHAIN',
  asset: 'USDT',
  amountAtomic: '250500000',
  signedAmountAtomic: '-250500000',
  failureCode: 'EXECUTION_REVERTED',
  networkFeeSummary: {
    asset: 'TRX',
    estimatedFeeAtomic: '13450000',
    reservedFeeAtomic: '30000000',
    actualFeeAtomic: '13450000',
    feeLimitAtomic: '30000000',
  },
  balanceEffects: [
    effect('RESERVE', 'USDT', '0', '250500000'),
    effect('RESERVE', 'TRX', '0', '30000000'),
    effect('POST', 'USDT', '0', '-250500000'),
    effect('POST', 'TRX', '-13450000', '-30000000'),
  ],
});

/** 20 TRX just created: reserved, nothing charged. */
export const pendingTrx = base({
  id: 'tx_pending',
  networkFeeSummary: trxFee(null),
  balanceEffects: [effect('RESERVE', 'TRX', '0', '21100000')],
});

export const decimalsFor = (asset: string) => (asset === 'TRX' || asset === 'USDT' ? 6 : null);

export function withStatus(tx: Transaction, overrides: Partial<Transaction>): Transaction {
  return { ...tx, ...overrides };
}

/** The value cell beside a label of a rendered DetailList. */
export function valueOf(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' });
  const value = term.nextElementSibling;
  if (!(value instanceof HTMLElement)) throw new Error(`no value for ${label}`);
  return value;
}
