import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, isApiError } from '../../../lib/api-client';
import { transactionKeys } from './keys';

/** The BFF's journal of one operation id: did the withdrawal get created? */
export const OperationStatusSchema = z.looseObject({
  operationId: z.string().optional(),
  state: z.enum(['pending', 'succeeded', 'failed', 'unknown']),
  status: z.number().nullable().optional(),
  response: z.unknown().optional(),
});
export type OperationStatus = z.infer<typeof OperationStatusSchema>;

export function fetchOperationStatus(operationId: string, signal?: AbortSignal) {
  return apiRequest(`/bff/operations/${encodeURIComponent(operationId)}`, OperationStatusSchema, {
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
      return state === 'succeeded' || state === 'failed' ? false : 2_000;
    },
    // 404 is an answer (the BFF never saw this id), not a failure to retry.
    retry: (failureCount, error) =>
      !(isApiError(error) && error.status === 404) && failureCount < 3,
  });
