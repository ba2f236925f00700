import { WITHDRAWAL_REQUEST_LIST_MAX, chainName, type Overview } from '@settlement/protocol';
import { Link } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { WalletName } from '../../../components/ui/wallet-name';
import { formatRelative } from '../../../lib/format-time';

const linkClass = 'font-medium text-indigo-700 underline';

/**
 * "1 request", "3 approved requests"; "200 or more requests" for a full list (the BFF lists the
 * newest 200 of a status, so an exact count would understate a full one).
 */
export function countRequests(count: number, noun: string): string {
  if (count >= WITHDRAWAL_REQUEST_LIST_MAX)
    return `${WITHDRAWAL_REQUEST_LIST_MAX} or more ${noun}s`;
  return count === 1 ? `1 ${noun}` : `${count} ${noun}s`;
}

/**
 * Withdrawals still PENDING: how many, how much per asset, how old the oldest is, and links;
 * then the requests not yet sent upstream (awaiting approval, or approved and being sent).
 */
export function InFlight({
  inFlight,
  awaitingApproval,
  approvedUnsent,
  decimalsFor,
  now,
}: {
  inFlight: Overview['inFlight'];
  /** Requests waiting for approval (null while unknown). */
  awaitingApproval: number | null;
  /**
   * Requests approved but not yet sent upstream (null while unknown). During an upstream
   * outage they wait and are retried: money about to leave that no transaction shows yet.
   */
  approvedUnsent: number | null;
  decimalsFor: (asset: string) => number | null;
  now: number;
}) {
  return (
    <div className="space-y-3 p-4 text-sm">
      <p>
        <span className="text-2xl font-semibold text-slate-900">{inFlight.count}</span>{' '}
        {inFlight.count === 1 ? 'withdrawal' : 'withdrawals'} in flight
        {inFlight.oldestCreatedAt ? (
          <span className="text-slate-600">
            {' '}
            · oldest sent {formatRelative(inFlight.oldestCreatedAt, now)}
          </span>
        ) : null}
      </p>
      {inFlight.totals.length > 0 ? (
        <ul aria-label="In flight per asset" className="space-y-1">
          {inFlight.totals.map((total) => (
            <li
              key={`${total.chain}-${total.asset}`}
              className="flex flex-wrap justify-between gap-x-3"
            >
              <span className="text-slate-600">
                {total.asset} on {chainName(total.chain)} ({total.count})
              </span>
              <Amount
                atomic={total.amountAtomic}
                decimals={decimalsFor(total.asset)}
                asset={total.asset}
              />
            </li>
          ))}
        </ul>
      ) : null}
      {inFlight.oldest.length > 0 ? (
        <ul
          aria-label="Oldest in flight"
          className="divide-y divide-slate-100 border-t border-slate-100"
        >
          {inFlight.oldest.map((t) => (
            <li
              key={t.id}
              className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2"
            >
              <Link to={`/transactions/${encodeURIComponent(t.id)}`} className={linkClass}>
                <Amount atomic={t.amountAtomic} decimals={decimalsFor(t.asset)} asset={t.asset} />
                <span className="sr-only"> withdrawal</span>
              </Link>
              <span className="min-w-0 text-slate-600">
                from <WalletName walletId={t.walletId} isLink={false} /> ·{' '}
                {formatRelative(t.createdAt, now)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <p>
        {awaitingApproval === null ? (
          <span className="text-slate-600">Approvals: unknown</span>
        ) : (
          // Every request awaiting approval, as counted: the default view (my inbox) leaves out
          // the operator's own requests.
          <Link to="/approvals?view=AWAITING_APPROVAL" className={linkClass}>
            {countRequests(awaitingApproval, 'request')} awaiting approval
          </Link>
        )}
      </p>
      {/* Unknown says nothing more: the line above already reports approvals as unknown. */}
      {approvedUnsent !== null && approvedUnsent > 0 ? (
        <p>
          <Link to="/approvals?view=APPROVED" className={linkClass}>
            {countRequests(approvedUnsent, 'approved request')} being sent
          </Link>
        </p>
      ) : null}
    </div>
  );
}
