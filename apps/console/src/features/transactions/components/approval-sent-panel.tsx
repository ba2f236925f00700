import type { WithdrawalRequest } from '@settlement/protocol';
import { useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { Button } from '../../../components/ui/button';
import { CopyableId } from '../../../components/ui/copy-button';
import { Time } from '../../../components/ui/time';
import { approvalsText } from '../model/policy-decision';

/**
 * The answer to a withdrawal the policy holds for approval (202): said plainly that nothing
 * has been sent, who must approve it, and where the request can be followed.
 */
export function ApprovalSentPanel({
  request,
  decimals,
  onNewWithdrawal,
}: {
  request: WithdrawalRequest;
  decimals: number | null;
  onNewWithdrawal: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The page changed under the operator's click: focus goes to what it now says, in the
  // commit that shows it (see SignedOutScreen).
  useLayoutEffect(() => {
    headingRef.current?.focus();
  }, []);
  const href = `/approvals/${encodeURIComponent(request.id)}`;
  return (
    <section aria-labelledby="approval-sent-heading" className="space-y-3 p-5">
      <h2
        id="approval-sent-heading"
        ref={headingRef}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 focus:outline-none"
      >
        Sent for approval — nothing has left the wallet yet
      </h2>
      <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
        The withdrawal policy
        {request.decision.rule ? ` (rule "${request.decision.rule.name}")` : ''} needs{' '}
        <strong>{approvalsText(request.approvalsRequired)}</strong> before it is sent. You cannot
        approve your own request. Once approved, it is sent once, under this request.
      </p>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Request id</dt>
        <dd>
          <CopyableId value={request.id} label="request id" />
        </dd>
        <dt className="text-slate-600">Amount</dt>
        <dd>
          <Amount atomic={request.amountAtomic} decimals={decimals} asset={request.asset} />
        </dd>
        <dt className="text-slate-600">To</dt>
        <dd className="font-mono text-xs break-all">{request.toAddress}</dd>
        <dt className="text-slate-600">Expires</dt>
        <dd>
          <Time value={request.expiresAt} />
        </dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        <Link
          to={href}
          className="inline-flex items-center rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700"
        >
          Open the request
        </Link>
        <Button onClick={onNewWithdrawal}>Start a new withdrawal</Button>
      </div>
    </section>
  );
}
