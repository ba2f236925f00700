import { TransactionSchema, listEnvelope } from '@settlement/protocol';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { FIRST_PAGE, PAGE_SIZE, nextCursorOf } from '../../../lib/paging';
import { keepTerminalPages } from '../../../lib/status-order';
import { transactionKeys } from './keys';
import type { TransactionFilters } from './keys';

const TransactionPageSchema = listEnvelope(TransactionSchema);

function fetchTransactions(
  filters: TransactionFilters,
  cursor: string | null,
  signal?: AbortSignal,
) {
  const path = withQuery('/bff/api/v1/transactions', { ...filters, cursor, limit: PAGE_SIZE });
  return apiRequest(path, TransactionPageSchema, { signal });
}

export const transactionListQuery = (filters: TransactionFilters) =>
  infiniteQueryOptions({
    queryKey: transactionKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchTransactions(filters, pageParam, signal),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextCursorOf,
    structuralSharing: keepTerminalPages,
  });
