import { WithdrawalRequestSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { governanceKeys } from './keys';

function fetchWithdrawalRequest(id: string, signal?: AbortSignal) {
  return apiRequest(`/bff/withdrawal-requests/${encodeURIComponent(id)}`, WithdrawalRequestSchema, {
    signal,
  });
}

export function withdrawalRequestQuery(id: string) {
  return queryOptions({
    queryKey: governanceKeys.requestDetail(id),
    queryFn: ({ signal }) => fetchWithdrawalRequest(id, signal),
  });
}
