import { WithdrawalRequestListSchema, type WithdrawalRequestStatus } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { governanceKeys } from './keys';

function fetchWithdrawalRequests(status: WithdrawalRequestStatus | null, signal?: AbortSignal) {
  return apiRequest(
    withQuery('/bff/withdrawal-requests', { status }),
    WithdrawalRequestListSchema,
    { signal },
  );
}

export function withdrawalRequestListQuery(status: WithdrawalRequestStatus | null) {
  return queryOptions({
    queryKey: governanceKeys.requestList(status),
    queryFn: ({ signal }) => fetchWithdrawalRequests(status, signal),
  });
}
