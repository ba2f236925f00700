import type Database from 'better-sqlite3';
import {
  atomicToDisplay,
  FINALITY_CONFIRMATIONS,
  type BalanceEffect,
  type Transaction,
  type TransactionEventData,
} from '@settlement/protocol';
import { accountNamesOf, findAccountRow } from './accounts';
import { postingsOfTransaction, postingsOfTransactions, type EntryPostingRow } from './ledger';
import { getTransaction, type TransactionRow } from './transactions-store';

/** Shapes stored transactions into the interface's transaction object and event data. */

export type ViewContext = {
  /** Decimals of an asset from the catalog (null when the catalog no longer lists it). */
  decimalsOf(asset: string): number | null;
  /**
   * Account names and postings read beforehand for a whole page of rows (see pageViewContext);
   * a row they do not cover is looked up on its own.
   */
  preloaded?: { accountNames: Map<string, string>; postings: Map<string, EntryPostingRow[]> };
};

/** The leg whose entries carry the ledger postings of this transaction (the source leg). */
function bookingTransactionId(row: TransactionRow): string {
  return row.isSourceLeg === 1 ? row.id : (row.counterpartTransactionId ?? row.id);
}

/**
 * The view context of a list page: every account name and posting the page shows, read in two
 * queries. Shaping each row with its own two look-ups made a 50-row page 100 queries (a CPU
 * profile of list pages at 1,000,000 transactions: 18% of the sandbox in those look-ups, beside
 * 22% in the page query itself).
 */
export function pageViewContext(
  db: Database.Database,
  orgId: string,
  rows: readonly TransactionRow[],
  base: ViewContext,
): ViewContext {
  return {
    ...base,
    preloaded: {
      accountNames: accountNamesOf(db, orgId, [...new Set(rows.map((row) => row.accountId))]),
      postings: postingsOfTransactions(db, [...new Set(rows.map(bookingTransactionId))]),
    },
  };
}

/** Balance effects on this row's wallet, one per ledger entry and asset, oldest first. */
function balanceEffectsOf(
  db: Database.Database,
  row: TransactionRow,
  context: ViewContext,
): BalanceEffect[] {
  const effects = new Map<string, BalanceEffect & { posted: bigint; reserved: bigint }>();
  const bookingId = bookingTransactionId(row);
  const postings =
    context.preloaded?.postings.get(bookingId) ?? postingsOfTransaction(db, bookingId);
  for (const p of postings) {
    if (p.walletId !== row.walletId) continue;
    const key = `${p.entryId}/${p.asset}`;
    const effect = effects.get(key) ?? {
      walletId: row.walletId,
      accountId: row.accountId,
      asset: p.asset,
      kind: p.kind,
      postedDeltaAtomic: '0',
      reservedDeltaAtomic: '0',
      at: p.createdAt,
      posted: 0n,
      reserved: 0n,
    };
    const amount = BigInt(p.amount);
    effect.posted += amount;
    if (p.bookKind === 'WALLET_HELD') effect.reserved += amount;
    effects.set(key, effect);
  }
  return [...effects.values()].map(({ posted, reserved, ...effect }) => ({
    ...effect,
    postedDeltaAtomic: posted.toString(),
    reservedDeltaAtomic: reserved.toString(),
  }));
}

export function toTransaction(
  db: Database.Database,
  row: TransactionRow,
  context: ViewContext,
): Transaction {
  const decimals = context.decimalsOf(row.asset);
  const hasFee = row.feeAsset !== null && row.reservedFeeAtomic !== null;
  return {
    id: row.id,
    walletId: row.walletId,
    account: {
      id: row.accountId,
      name:
        context.preloaded?.accountNames.get(row.accountId) ??
        findAccountRow(db, row.orgId, row.accountId)?.name ??
        '',
    },
    type: row.type,
    status: row.status,
    chain: row.chain as Transaction['chain'],
    asset: row.asset,
    amountAtomic: row.amountAtomic,
    displayAmount:
      decimals === null ? row.amountAtomic : atomicToDisplay(row.amountAtomic, decimals),
    signedAmountAtomic: row.direction === 'DEBIT' ? `-${row.amountAtomic}` : row.amountAtomic,
    direction: row.direction,
    balanceEffects: balanceEffectsOf(db, row, context),
    onChainDetails:
      row.txHash === null || row.broadcastAt === null
        ? null
        : {
            txHash: row.txHash,
            fromAddress: row.fromAddress ?? '',
            toAddress: row.toAddress ?? '',
            blockNumber: row.blockNumber,
            confirmations: row.confirmations,
            requiredConfirmations: FINALITY_CONFIRMATIONS,
            broadcastAt: row.broadcastAt,
          },
    networkFeeSummary: hasFee
      ? {
          asset: row.feeAsset ?? '',
          estimatedFeeAtomic: row.estimatedFeeAtomic ?? '0',
          reservedFeeAtomic: row.reservedFeeAtomic ?? '0',
          actualFeeAtomic: row.actualFeeAtomic,
          feeLimitAtomic: row.feeLimitAtomic,
        }
      : null,
    clientReference: row.clientReference,
    billingReference: row.billingReference,
    toAddress: row.toAddress,
    fromAddress: row.fromAddress,
    transactionGroupId: row.transactionGroupId,
    counterpartTransactionId: row.counterpartTransactionId,
    transferKind: row.transferKind,
    failureCode: row.failureCode,
    failureMessage: row.failureMessage,
    correlationId: row.correlationId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * The interface's transaction lifecycle data for one transaction (for an internal transfer:
 * the pair, seen from its source leg), plus the sandbox's `stage` and `confirmations`.
 */
export function transactionEventData(
  db: Database.Database,
  row: TransactionRow,
): TransactionEventData & { stage: string; confirmations: number } {
  const isInternal = row.transferKind === 'INTERNAL_TRANSFER';
  const counterpart =
    isInternal && row.counterpartTransactionId !== null
      ? getTransaction(db, row.counterpartTransactionId)
      : undefined;
  const source = isInternal && row.isSourceLeg === 0 ? counterpart : row;
  const destination = isInternal ? (row.isSourceLeg === 1 ? counterpart : row) : undefined;
  const main = source ?? row;
  return {
    transactionId: main.id,
    transactionGroupId: main.transactionGroupId,
    sourceTransactionId: isInternal ? main.id : null,
    destinationTransactionId: destination?.id ?? null,
    orgId: main.orgId,
    accountId: main.accountId,
    walletId: main.walletId,
    destinationAccountId: destination?.accountId ?? null,
    destinationWalletId: destination?.walletId ?? null,
    chain: main.chain,
    asset: main.asset,
    amountAtomic: main.amountAtomic,
    amountDirection: main.direction,
    isInternalTransfer: isInternal,
    transferKind: main.transferKind,
    fromAddress: main.fromAddress,
    toAddress: main.toAddress,
    txHash: main.txHash,
    status: main.status,
    sourceStatus: isInternal ? main.status : null,
    destinationStatus: destination?.status ?? null,
    failureCode: main.failureCode,
    failureMessage: main.failureMessage,
    stage: main.stage,
    confirmations: main.confirmations,
  };
}
