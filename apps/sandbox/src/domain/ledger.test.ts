import { describe, expect, it } from 'vitest';
import { migrate, openDb } from '../store/db';
import { migration004 } from '../store/migrations/004-money-movement';
import {
  availableOf,
  checkLedgerInvariants,
  clearingBook,
  feeExpenseBook,
  freeBook,
  heldBook,
  LedgerError,
  postEntry,
  walletAssetBalances,
} from './ledger';

function freshDb() {
  const db = openDb(':memory:');
  migrate(db, [migration004]);
  return db;
}

const wallet = { id: 'w1', orgId: 'o1', chain: 'tron:nile' };
const at = '2025-01-01T00:00:00.000Z';

function deposit(db: ReturnType<typeof freshDb>, asset: string, amount: bigint) {
  db.transaction(() =>
    postEntry(db, { orgId: 'o1', transactionId: null, kind: 'POST', at }, [
      { book: freeBook(wallet, asset), amount },
      { book: clearingBook('o1', wallet.chain, asset), amount: -amount },
    ]),
  )();
}

describe('ledger', () => {
  it('derives posted, reserved and available from balanced postings', () => {
    const db = freshDb();
    deposit(db, 'TRX', 10_000_000n);
    db.transaction(() =>
      postEntry(db, { orgId: 'o1', transactionId: null, kind: 'RESERVE', at }, [
        { book: freeBook(wallet, 'TRX'), amount: -3_000_000n },
        { book: heldBook(wallet, 'TRX'), amount: 3_000_000n },
      ]),
    )();
    const trx = walletAssetBalances(db, 'w1').get('TRX');
    expect(trx).toEqual({ posted: 10_000_000n, reserved: 3_000_000n, available: 7_000_000n });
    expect(availableOf(db, wallet, 'TRX')).toBe(7_000_000n);
    // No PENDING transaction owns this hold, so the reservation check reports it.
    expect(checkLedgerInvariants(db)).toEqual([
      'held book wallet:w1:TRX:held is 3000000, open reservations 0',
    ]);
  });

  it('refuses an unbalanced entry and a negative wallet book, writing nothing', () => {
    const db = freshDb();
    deposit(db, 'TRX', 1_000n);
    const unbalanced = db.transaction(() =>
      postEntry(db, { orgId: 'o1', transactionId: null, kind: 'POST', at }, [
        { book: freeBook(wallet, 'TRX'), amount: -1_000n },
        { book: feeExpenseBook('o1', wallet.chain, 'TRX'), amount: 999n },
      ]),
    );
    expect(unbalanced).toThrow(LedgerError);
    const overdraw = db.transaction(() =>
      postEntry(db, { orgId: 'o1', transactionId: null, kind: 'POST', at }, [
        { book: freeBook(wallet, 'TRX'), amount: -1_001n },
        { book: feeExpenseBook('o1', wallet.chain, 'TRX'), amount: 1_001n },
      ]),
    );
    expect(overdraw).toThrow(/negative/);
    expect(availableOf(db, wallet, 'TRX')).toBe(1_000n);
    expect(checkLedgerInvariants(db)).toEqual([]);
  });

  it('handles amounts beyond 64 bits exactly', () => {
    const db = freshDb();
    const huge = 10n ** 30n + 7n;
    deposit(db, 'USDT', huge);
    deposit(db, 'USDT', huge);
    expect(availableOf(db, wallet, 'USDT')).toBe(2n * huge);
    expect(checkLedgerInvariants(db)).toEqual([]);
  });

  it('reports a book that no longer matches its postings', () => {
    const db = freshDb();
    deposit(db, 'TRX', 5n);
    db.prepare("UPDATE ledger_books SET balance = '6' WHERE kind = 'WALLET_FREE'").run();
    expect(checkLedgerInvariants(db)).toEqual([expect.stringContaining('postings sum to 5')]);
  });
});
