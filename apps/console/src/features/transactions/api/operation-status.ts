import { OperationViewSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, isApiError } from '../../../lib/api-client';
import { transactionKeys } from './keys';

/** The BFF's journal of one operation id: did the withdrawal get created? */
function fetchOperationStatus(operationId: string, signal?: AbortSignal) {
  return apiRequest(`/bff/operations/${encodeURIComponent(operationId)}`, OperationViewSchema, {
    signal,
  });
}

/** Polls while the outcome is open. */
export const operationStatusQuery = (operationId: string) =>
  queryOptions({
    queryKey: transactionKeys.operation(operationId),
    queryFn: ({ signal }) => fetchOperationStatus(operationId, signal),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === 'pending' || state === 'unknown' || state === undefined ? 2_000 : false;
    },
    // 404 is an answer (the BFF never saw this id), not a failure to retry.
    retry: (failureCount, error) =>
      !(isApiError(error) && error.status === 404) && failureCount < 3,
  });
