import { WithdrawalRequestSchema, type WithdrawalRequest } from '@settlement/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { governanceKeys } from './keys';

/** approve, reject (with a reason) or cancel (the requester's own) a withdrawal request. */
type RequestDecision =
  | { id: string; kind: 'approve' }
  | { id: string; kind: 'reject'; reason: string }
  | { id: string; kind: 'cancel' };

function decideRequest(decision: RequestDecision): Promise<WithdrawalRequest> {
  const path = `/bff/withdrawal-requests/${encodeURIComponent(decision.id)}/${decision.kind}`;
  return apiRequest(path, WithdrawalRequestSchema, {
    method: 'POST',
    ...(decision.kind === 'reject' ? { body: { reason: decision.reason } } : {}),
  });
}

export function useRequestDecisionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideRequest,
    onSuccess: (request) => {
      queryClient.setQueryData(governanceKeys.requestDetail(request.id), request);
      return queryClient.invalidateQueries({ queryKey: governanceKeys.requestLists() });
    },
  });
}
