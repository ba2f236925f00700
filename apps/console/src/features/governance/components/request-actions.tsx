import type { WithdrawalRequest } from '@settlement/protocol';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextAreaField } from '../../../components/ui/field';
import { useIsSlow } from '../../../lib/use-is-slow';
import { useRequestDecisionMutation } from '../api/request-decision';

/** Who may do what with a request; the BFF enforces the same rules. */
function requestAbilities(
  request: WithdrawalRequest,
  operator: { username: string; role: string },
) {
  const isAwaiting = request.status === 'AWAITING_APPROVAL';
  const isRequester = request.requester === operator.username;
  const hasRole = (request.approvalsRequired.fromRoles as readonly string[]).includes(
    operator.role,
  );
  const hasApproved = request.approvals.some((a) => a.operator === operator.username);
  return {
    canApprove: isAwaiting && !isRequester && hasRole && !hasApproved,
    canReject: isAwaiting && !isRequester && hasRole,
    canCancel: isAwaiting && isRequester,
    isRequester,
  };
}

/**
 * What an operator can no longer do anything about, said for its status: an approved request
 * that is not sent yet is being sent (the BFF retries it on its own when the service did not
 * answer), not merely "no longer awaiting approval".
 */
function settledMessage(request: WithdrawalRequest): string {
  switch (request.status) {
    case 'APPROVED':
      return 'Approved and being sent. If the settlement service does not answer, it is sent again on its own: after 2 seconds, then less often, at least once a minute.';
    case 'SUBMITTED':
      return 'Approved and sent: the Withdrawal panel links its transaction.';
    default:
      return 'This request no longer awaits approval.';
  }
}

/** Approve, reject with a reason, or (the requester) cancel. */
export function RequestActions({
  request,
  operator,
}: {
  request: WithdrawalRequest;
  operator: { username: string; role: string };
}) {
  const decision = useRequestDecisionMutation();
  const [reason, setReason] = useState('');
  const [isRejecting, setIsRejecting] = useState(false);
  const abilities = requestAbilities(request, operator);
  const isSlow = useIsSlow(decision.isPending);
  const pendingKind = decision.isPending ? decision.variables.kind : null;

  if (!abilities.canApprove && !abilities.canReject && !abilities.canCancel) {
    return (
      <p className="p-4 text-sm text-slate-600">
        {request.status !== 'AWAITING_APPROVAL'
          ? settledMessage(request)
          : abilities.isRequester
            ? 'You requested this withdrawal: another operator must approve it.'
            : `Approving needs the role ${request.approvalsRequired.fromRoles.join(' or ')}.`}
      </p>
    );
  }

  return (
    <div className="space-y-3 p-4">
      {abilities.isRequester ? (
        <p className="text-sm text-slate-600">
          You requested this withdrawal: another operator must approve it.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {abilities.canApprove ? (
          <Button
            variant="primary"
            disabled={decision.isPending}
            onClick={() => {
              decision.mutate({ id: request.id, kind: 'approve' });
            }}
          >
            {pendingKind === 'approve' ? 'Approving…' : 'Approve'}
          </Button>
        ) : null}
        {abilities.canReject && !isRejecting ? (
          <Button
            variant="danger"
            disabled={decision.isPending}
            onClick={() => {
              setIsRejecting(true);
            }}
          >
            Reject…
          </Button>
        ) : null}
        {abilities.canCancel ? (
          <Button
            disabled={decision.isPending}
            onClick={() => {
              decision.mutate({ id: request.id, kind: 'cancel' });
            }}
          >
            Cancel request
          </Button>
        ) : null}
      </div>
      {isRejecting ? (
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            decision.mutate({ id: request.id, kind: 'reject', reason: reason.trim() });
          }}
        >
          <TextAreaField
            label="Reason for rejecting"
            value={reason}
            required
            maxLength={500}
            rows={2}
            onChange={(event) => {
              setReason(event.target.value);
            }}
          />
          <Button type="submit" variant="danger" disabled={decision.isPending || !reason.trim()}>
            Reject request
          </Button>
        </form>
      ) : null}
      <p aria-live="polite" className="text-sm text-slate-700 empty:hidden">
        {isSlow ? 'Still waiting for the settlement service…' : ''}
      </p>
      {decision.isError ? <ErrorPanel error={decision.error} /> : null}
    </div>
  );
}
