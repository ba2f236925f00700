import type { Transaction } from '@settlement/protocol';
import { Link } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { StatusBadge } from '../../../components/ui/badge';
import { WalletName } from '../../../components/ui/wallet-name';
import { formatRelative } from '../../../lib/format-time';

/** A failed transaction moved nothing: its amount must not read as a real debit. */
function isFailed(t: Transaction): boolean {
  return t.status === 'FAILED' || t.status === 'FAILED_ON_CHAIN';
}

function signedAtomic(t: Transaction): string {
  if (t.signedAmountAtomic) return t.signedAmountAtomic;
  return t.direction === 'DEBIT' ? `-${t.amountAtomic}` : t.amountAtomic;
}

/**
 * The latest transactions as stacked rows: each row is one link to the transaction, and says
 * what moved (signed amount with the asset's decimals), where, and how it ended.
 */
export function RecentActivity({
  transactions,
  decimalsFor,
  now,
}: {
  transactions: readonly Transaction[];
  decimalsFor: (asset: string) => number | null;
  now: number;
}) {
  return (
    <ul aria-label="Recent activity" className="divide-y divide-slate-100">
      {transactions.map((t) => (
        <li key={t.id} className="relative px-4 py-3 hover:bg-slate-50">
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
            <Link
              to={`/transactions/${encodeURIComponent(t.id)}`}
              className="font-medium text-indigo-700 capitalize underline after:absolute after:inset-0"
            >
              {t.type.replaceAll('_', ' ').toLowerCase()}
              <span className="sr-only"> {t.id}</span>
            </Link>
            {isFailed(t) ? (
              <span className="text-slate-600">
                <Amount
                  atomic={t.amountAtomic}
                  decimals={decimalsFor(t.asset)}
                  asset={t.asset}
                  className="line-through"
                />{' '}
                <span className="text-xs">not moved</span>
              </span>
            ) : (
              <Amount atomic={signedAtomic(t)} decimals={decimalsFor(t.asset)} asset={t.asset} />
            )}
          </div>
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
            <StatusBadge status={t.status} />
            <WalletName walletId={t.walletId} isLink={false} />
            <time dateTime={t.createdAt}>{formatRelative(t.createdAt, now)}</time>
          </div>
        </li>
      ))}
    </ul>
  );
}
