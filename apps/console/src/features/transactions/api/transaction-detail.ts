import { TransactionSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { keepTerminalDetail } from '../../../lib/status-order';
import { transactionKeys } from './keys';

function fetchTransaction(id: string, signal?: AbortSignal) {
  return apiRequest(`/bff/api/v1/transactions/${encodeURIComponent(id)}`, TransactionSchema, {
    signal,
  });
}

export const transactionDetailQuery = (id: string) =>
  queryOptions({
    queryKey: transactionKeys.detail(id),
    queryFn: ({ signal }) => fetchTransaction(id, signal),
    structuralSharing: keepTerminalDetail,
  });
