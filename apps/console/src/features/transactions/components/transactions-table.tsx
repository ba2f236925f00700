import type { Transaction } from '@settlement/protocol';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { StatusBadge } from '../../../components/ui/badge';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { isFailedStatus } from '../model/funds-outcome';

const ROW_HEIGHT = 52;

export function typeLabel(transaction: Transaction): string {
  return transaction.type.replaceAll('_', ' ').toLowerCase();
}

/** Signed display: debits show a minus. */
function signedAtomic(transaction: Transaction): string {
  if (transaction.signedAmountAtomic) return transaction.signedAmountAtomic;
  return transaction.direction === 'DEBIT'
    ? `-${transaction.amountAtomic}`
    : transaction.amountAtomic;
}

/**
 * The amount of one row. A failed transaction never moved its amount, so it is struck through,
 * without sign and in neutral grey, and says so in words: it must not read as a real debit.
 */
function RowAmount({
  transaction,
  decimals,
  alignDecimals,
}: {
  transaction: Transaction;
  decimals: number | null;
  alignDecimals: number;
}) {
  if (!isFailedStatus(transaction.status)) {
    return (
      <Amount
        atomic={signedAtomic(transaction)}
        decimals={decimals}
        asset={transaction.asset}
        alignDecimals={alignDecimals}
      />
    );
  }
  return (
    <span className="inline-flex flex-col items-end leading-tight">
      <Amount
        atomic={transaction.amountAtomic}
        decimals={decimals}
        asset={transaction.asset}
        alignDecimals={alignDecimals}
        className="text-slate-500 line-through"
      />
      <span className="text-xs text-slate-600">
        {transaction.direction === 'CREDIT' ? 'not credited' : 'not debited'}
      </span>
    </span>
  );
}

/**
 * Virtualized: only the visible rows are in the DOM, so thousands of rows scroll smoothly.
 * Reaching the end loads the next page.
 */
export function TransactionsTable({
  transactions,
  decimalsFor,
  hasNextPage,
  isFetchingNextPage,
  onLoadMore,
  label = 'Transactions',
  maxHeight = '70vh',
}: {
  transactions: Transaction[];
  decimalsFor: (asset: string) => number | null;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  onLoadMore: () => void;
  label?: string;
  maxHeight?: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual is the chosen virtualizer
  const virtualizer = useVirtualizer({
    count: transactions.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    initialRect: { width: 1024, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= transactions.length - 5) onLoadMore();
  }, [hasNextPage, isFetchingNextPage, lastIndex, transactions.length, onLoadMore]);

  // One decimal point for the whole column: the most decimals among the loaded rows' assets.
  const alignDecimals = transactions.reduce(
    (most, t) => Math.max(most, decimalsFor(t.asset) ?? 0),
    0,
  );
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <div
      ref={scrollRef}
      // relative: absolutely positioned sr-only texts in the cells stay clipped by this box.
      className="relative overflow-auto"
      style={{ maxHeight }}
      tabIndex={0}
      role="region"
      aria-label={`${label} (scrollable)`}
    >
      <table
        className="w-full border-collapse text-left text-sm"
        aria-label={label}
        aria-rowcount={transactions.length + 1}
      >
        <thead className="sticky top-0 z-10">
          <tr>
            <Th>Created</Th>
            <Th>Transaction</Th>
            <Th>Type</Th>
            <Th>Status</Th>
            <Th className="text-right">Amount</Th>
            <Th>Account</Th>
            <Th>Reference</Th>
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={7} style={{ height: paddingTop }} />
            </tr>
          ) : null}
          {items.map((item) => {
            const transaction = transactions[item.index];
            if (!transaction) return null;
            return (
              <tr
                key={transaction.id}
                aria-rowindex={item.index + 2}
                className="border-b border-slate-100 hover:bg-slate-50"
                style={{ height: ROW_HEIGHT }}
              >
                <td className="px-4 py-2">
                  <Time value={transaction.createdAt} />
                </td>
                <td className="px-4 py-2">
                  <Link
                    to={`/transactions/${encodeURIComponent(transaction.id)}`}
                    className="font-mono text-xs font-medium text-indigo-700 hover:underline"
                    aria-label={`Transaction ${transaction.id}`}
                  >
                    {transaction.id.length > 18
                      ? `${transaction.id.slice(0, 10)}…${transaction.id.slice(-6)}`
                      : transaction.id}
                  </Link>
                </td>
                <td className="px-4 py-2">
                  <span className="flex flex-wrap items-center gap-1.5">
                    <span className="capitalize">{typeLabel(transaction)}</span>
                    <ChainBadge chain={transaction.chain} />
                  </span>
                </td>
                <td className="px-4 py-2">
                  <StatusBadge status={transaction.status} />
                </td>
                <td className="px-4 py-2 text-right">
                  <RowAmount
                    transaction={transaction}
                    decimals={decimalsFor(transaction.asset)}
                    alignDecimals={alignDecimals}
                  />
                </td>
                <td className="max-w-40 truncate px-4 py-2">
                  <Link
                    to={`/accounts/${encodeURIComponent(transaction.account.id)}`}
                    className="text-indigo-700 hover:underline"
                  >
                    {transaction.account.name ?? transaction.account.id}
                  </Link>
                </td>
                <td className="max-w-48 px-4 py-2">
                  {transaction.clientReference ? (
                    <CopyableId
                      value={transaction.clientReference}
                      label="client reference"
                      isShort
                    />
                  ) : (
                    <span className="text-slate-500">—</span>
                  )}
                </td>
              </tr>
            );
          })}
          {paddingBottom > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={7} style={{ height: paddingBottom }} />
            </tr>
          ) : null}
        </tbody>
      </table>
      {isFetchingNextPage ? (
        <p role="status" className="p-3 text-center text-xs text-slate-600">
          Loading more…
        </p>
      ) : null}
    </div>
  );
}
