import { TransactionSchema, listEnvelope } from '@settlement/protocol';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { FIRST_PAGE, PAGE_SIZE, nextCursorOf } from '../../../lib/paging';
import { keepTerminalPage, keepTerminalPages } from '../../../lib/status-order';
import { transactionKeys } from './keys';
import type { TransactionFilters } from './keys';

const TransactionPageSchema = listEnvelope(TransactionSchema);

function fetchTransactions(
  filters: TransactionFilters,
  cursor: string | null,
  signal?: AbortSignal,
  limit: string = PAGE_SIZE,
) {
  const path = withQuery('/bff/api/v1/transactions', { ...filters, cursor, limit });
  return apiRequest(path, TransactionPageSchema, { signal });
}

export const transactionListQuery = (filters: TransactionFilters) =>
  infiniteQueryOptions({
    queryKey: transactionKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchTransactions(filters, pageParam, signal),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextCursorOf,
    structuralSharing: keepTerminalPages,
    meta: { firstPage: (signal) => fetchTransactions(filters, FIRST_PAGE, signal) },
  });

/** The newest `limit` transactions in one small request (not a page of the full list). */
export const recentTransactionsQuery = (limit: number) =>
  queryOptions({
    queryKey: transactionKeys.recent(limit),
    queryFn: ({ signal }) => fetchTransactions({}, FIRST_PAGE, signal, String(limit)),
    structuralSharing: keepTerminalPage,
  });
