import type { WithdrawalRequest } from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import { withdrawalRequestListQuery } from './withdrawal-requests';

/** Requests awaiting an approval this operator may give (not their own, role required). */
export function awaitingMyApproval(
  requests: readonly WithdrawalRequest[],
  operator: { username: string; role: string },
): WithdrawalRequest[] {
  return requests.filter(
    (request) =>
      request.status === 'AWAITING_APPROVAL' &&
      request.requester !== operator.username &&
      (request.approvalsRequired.fromRoles as readonly string[]).includes(operator.role) &&
      !request.approvals.some((a) => a.operator === operator.username),
  );
}

/** The navigation badge: how many requests wait for this operator. */
export function useApprovalsInboxCount(operator: { username: string; role: string }): number {
  const query = useQuery(withdrawalRequestListQuery('AWAITING_APPROVAL'));
  return awaitingMyApproval(query.data?.items ?? [], operator).length;
}
