import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../store/db';
import { transactionRow } from '../test-support/transaction-rows';
import { getTransaction, insertTransaction } from './transactions-store';

let db: Database.Database;

beforeEach(() => {
  db = new Database(':memory:');
  migrate(db);
});

afterEach(() => {
  db.close();
});

const AT = '2030-01-01T00:00:00.000Z';

describe('insertTransaction', () => {
  it('returns the seq with which the row reads back exactly as it was written', () => {
    // Creation builds the stored row from what it wrote (no read back): every column must
    // round-trip with its JavaScript type. Between them the two rows set every nullable
    // column and leave it null; the amount is past 2^53, which only a TEXT column keeps whole.
    const reserved = transactionRow({
      id: '01a24f3c-5eef-769f-b7de-de070e093021',
      asset: 'USDT',
      amountAtomic: '123456789012345678901234567890',
      transferKind: 'INTERNAL_TRANSFER',
      fromAddress: 'TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy',
      toAddress: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
      clientReference: 'ref-1',
      transactionGroupId: 'group-1',
      counterpartTransactionId: 'tx-destination',
      feeAsset: 'TRX',
      estimatedFeeAtomic: '1100000',
      reservedFeeAtomic: '1100000',
      feeLimitAtomic: '30000000',
      forcedOutcome: 'FAILED_ON_CHAIN',
      requestId: 'req-1',
      idempotencyKey: 'key-1',
    });
    const onChain = transactionRow({
      id: '01a24f3c-5ef1-7a00-8c11-4b2a9e0f7d13',
      stage: 'BROADCAST',
      isSourceLeg: 0,
      actualFeeAtomic: '268000',
      txHash: 'ab'.repeat(32),
      blockNumber: 9_007_199,
      confirmations: 5,
      broadcastAt: AT,
      failureCode: 'EXECUTION_REVERTED',
      failureMessage: 'reverted',
    });
    const seqs = [reserved, onChain].map((row) => insertTransaction(db, row));
    expect(seqs).toEqual([1, 2]);
    expect(getTransaction(db, reserved.id)).toStrictEqual({ seq: 1, ...reserved });
    expect(getTransaction(db, onChain.id)).toStrictEqual({ seq: 2, ...onChain });
  });
});
