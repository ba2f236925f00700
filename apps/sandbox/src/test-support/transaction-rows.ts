import type { NewTransaction } from '../domain/transactions-store';

/**
 * Test support only: a transaction row as the store writes it, a TRX withdrawal just reserved
 * (unsigned, nothing on chain), with `overrides` applied. Tests insert it with insertTransaction.
 */
export function transactionRow(overrides: Partial<NewTransaction> = {}): NewTransaction {
  const at = '2030-01-01T00:00:00.000Z';
  return {
    id: 'tx-1',
    orgId: 'org',
    walletId: 'wallet',
    accountId: 'account',
    type: 'WITHDRAWAL',
    status: 'PENDING',
    stage: 'RESERVED',
    chain: 'tron:nile',
    asset: 'TRX',
    amountAtomic: '1000000',
    direction: 'DEBIT',
    transferKind: 'EXTERNAL_WITHDRAWAL',
    fromAddress: null,
    toAddress: null,
    clientReference: null,
    transactionGroupId: null,
    counterpartTransactionId: null,
    isSourceLeg: 1,
    feeAsset: null,
    estimatedFeeAtomic: null,
    reservedFeeAtomic: null,
    actualFeeAtomic: null,
    feeLimitAtomic: null,
    forcedOutcome: null,
    txHash: null,
    blockNumber: null,
    confirmations: 0,
    broadcastAt: null,
    failureCode: null,
    failureMessage: null,
    billingReference: 'BILL-1',
    correlationId: 'corr-1',
    requestId: null,
    idempotencyKey: null,
    createdAtMs: Date.parse(at),
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}
