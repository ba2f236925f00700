import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../store/db';
import { getTransaction, insertTransaction, type NewTransaction } from './transactions-store';

let dir: string;
let db: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'transactions-store-'));
  db = new Database(join(dir, 'sandbox.db'));
  migrate(db);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const AT = '2030-01-01T00:00:00.000Z';

const reserved: NewTransaction = {
  id: '01a24f3c-5eef-769f-b7de-de070e093021',
  orgId: 'org',
  walletId: 'wallet',
  accountId: 'account',
  type: 'WITHDRAWAL',
  status: 'PENDING',
  stage: 'RESERVED',
  chain: 'tron:nile',
  asset: 'USDT',
  // Past 2^53: a TEXT column keeps every digit.
  amountAtomic: '123456789012345678901234567890',
  direction: 'DEBIT',
  transferKind: 'INTERNAL_TRANSFER',
  fromAddress: 'TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy',
  toAddress: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
  clientReference: 'ref-1',
  transactionGroupId: 'group-1',
  counterpartTransactionId: 'tx-destination',
  isSourceLeg: 1,
  feeAsset: 'TRX',
  estimatedFeeAtomic: '1100000',
  reservedFeeAtomic: '1100000',
  actualFeeAtomic: null,
  feeLimitAtomic: '30000000',
  forcedOutcome: 'FAILED_ON_CHAIN',
  txHash: null,
  blockNumber: null,
  confirmations: 0,
  broadcastAt: null,
  failureCode: null,
  failureMessage: null,
  billingReference: 'BILL-DE070E093021',
  correlationId: 'corr-1',
  requestId: 'req-1',
  idempotencyKey: 'key-1',
  createdAtMs: Date.parse(AT),
  createdAt: AT,
  updatedAt: AT,
};

describe('insertTransaction', () => {
  it('returns the seq with which the row reads back exactly as it was written', () => {
    // Creation builds the stored row from what it wrote (no read back): every column must
    // round-trip with its JavaScript type, nulls and large amounts included.
    const onChain: NewTransaction = {
      ...reserved,
      id: '01a24f3c-5ef1-7a00-8c11-4b2a9e0f7d13',
      stage: 'BROADCAST',
      amountAtomic: '0',
      clientReference: null,
      transactionGroupId: null,
      counterpartTransactionId: null,
      isSourceLeg: 0,
      feeAsset: null,
      estimatedFeeAtomic: null,
      reservedFeeAtomic: null,
      feeLimitAtomic: null,
      actualFeeAtomic: '268000',
      forcedOutcome: null,
      txHash: 'ab'.repeat(32),
      blockNumber: 9_007_199,
      confirmations: 5,
      broadcastAt: AT,
      failureCode: 'EXECUTION_REVERTED',
      failureMessage: 'reverted',
      requestId: null,
      idempotencyKey: null,
    };
    const seqs = [reserved, onChain].map((row) => insertTransaction(db, row));
    expect(seqs).toEqual([1, 2]);
    expect(getTransaction(db, reserved.id)).toStrictEqual({ seq: 1, ...reserved });
    expect(getTransaction(db, onChain.id)).toStrictEqual({ seq: 2, ...onChain });
  });
});
