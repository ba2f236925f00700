import type Database from 'better-sqlite3';
import {
  clearingBook,
  feeExpenseBook,
  freeBook,
  heldBook,
  postEntry,
  type Posting,
  type WalletRef,
} from './ledger';
import { getTransaction, type TransactionRow } from './transactions-store';

/**
 * The ledger entries of a withdrawal or internal transfer. The source leg owns them:
 * - RESERVE at creation: free -> held for the amount (asset) and the reserved fee (TRX);
 * - RELEASE when it FAILS: held -> free, everything back (exactly once: the caller moves the
 *   status from PENDING under a guard first);
 * - POST when CONFIRMED: held amount -> chain clearing (or the destination wallet's free book
 *   for an internal transfer), actual fee -> fee expense, unused fee reserve -> free;
 * - POST when FAILED_ON_CHAIN: amount held -> free (not moved), fee as when confirmed.
 */

function source(row: TransactionRow): WalletRef {
  return { id: row.walletId, orgId: row.orgId, chain: row.chain };
}

function reservedParts(row: TransactionRow): { amount: bigint; fee: bigint; feeAsset: string } {
  return {
    amount: BigInt(row.amountAtomic),
    fee: BigInt(row.reservedFeeAtomic ?? '0'),
    feeAsset: row.feeAsset ?? row.asset,
  };
}

export function reserve(db: Database.Database, row: TransactionRow, at: string): void {
  const wallet = source(row);
  const { amount, fee, feeAsset } = reservedParts(row);
  postEntry(db, { orgId: row.orgId, transactionId: row.id, kind: 'RESERVE', at }, [
    { book: freeBook(wallet, row.asset), amount: -amount },
    { book: heldBook(wallet, row.asset), amount },
    { book: freeBook(wallet, feeAsset), amount: -fee },
    { book: heldBook(wallet, feeAsset), amount: fee },
  ]);
}

export function releaseReservation(db: Database.Database, row: TransactionRow, at: string): void {
  const wallet = source(row);
  const { amount, fee, feeAsset } = reservedParts(row);
  postEntry(db, { orgId: row.orgId, transactionId: row.id, kind: 'RELEASE', at }, [
    { book: heldBook(wallet, row.asset), amount: -amount },
    { book: freeBook(wallet, row.asset), amount },
    { book: heldBook(wallet, feeAsset), amount: -fee },
    { book: freeBook(wallet, feeAsset), amount: fee },
  ]);
}

function feePostings(row: TransactionRow): Posting[] {
  const wallet = source(row);
  const { fee, feeAsset } = reservedParts(row);
  // Settling happens after broadcast only; a missing actual fee would silently charge nothing.
  if (fee > 0n && row.actualFeeAtomic === null) {
    throw new Error(`transaction ${row.id} settles without an actual fee (never broadcast)`);
  }
  const actual = BigInt(row.actualFeeAtomic ?? '0');
  return [
    { book: heldBook(wallet, feeAsset), amount: -fee },
    { book: feeExpenseBook(row.orgId, row.chain, feeAsset), amount: actual },
    { book: freeBook(wallet, feeAsset), amount: fee - actual },
  ];
}

/** Settles a confirmed transfer; the destination of an internal transfer is its credit leg. */
export function settleConfirmed(db: Database.Database, row: TransactionRow, at: string): void {
  const wallet = source(row);
  const amount = BigInt(row.amountAtomic);
  const destination =
    row.transferKind === 'INTERNAL_TRANSFER' && row.counterpartTransactionId !== null
      ? getTransaction(db, row.counterpartTransactionId)
      : undefined;
  const to = destination
    ? freeBook({ id: destination.walletId, orgId: row.orgId, chain: row.chain }, row.asset)
    : clearingBook(row.orgId, row.chain, row.asset);
  postEntry(db, { orgId: row.orgId, transactionId: row.id, kind: 'POST', at }, [
    { book: heldBook(wallet, row.asset), amount: -amount },
    { book: to, amount },
    ...feePostings(row),
  ]);
}

/** Execution failed on chain: the fee is consumed, the amount returns to the free book. */
export function settleFailedOnChain(db: Database.Database, row: TransactionRow, at: string): void {
  const wallet = source(row);
  const amount = BigInt(row.amountAtomic);
  postEntry(db, { orgId: row.orgId, transactionId: row.id, kind: 'POST', at }, [
    { book: heldBook(wallet, row.asset), amount: -amount },
    { book: freeBook(wallet, row.asset), amount },
    ...feePostings(row),
  ]);
}

/** A confirmed deposit: the outside world (chain clearing) pays into the wallet's free book. */
export function creditDeposit(db: Database.Database, row: TransactionRow, at: string): void {
  const amount = BigInt(row.amountAtomic);
  postEntry(db, { orgId: row.orgId, transactionId: row.id, kind: 'POST', at }, [
    { book: freeBook(source(row), row.asset), amount },
    { book: clearingBook(row.orgId, row.chain, row.asset), amount: -amount },
  ]);
}
