import { TransactionSchema, listEnvelope } from '@settlement/protocol';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { FIRST_PAGE, PAGE_SIZE, nextCursorOf } from '../../../lib/paging';
import { keepTerminalPages } from '../../../lib/status-order';
import { accountKeys } from './keys';

const TransactionPageSchema = listEnvelope(TransactionSchema);

function fetchAccountTransactions(id: string, cursor: string | null, signal?: AbortSignal) {
  const path = withQuery(`/bff/api/v1/ledger/accounts/${encodeURIComponent(id)}/transactions`, {
    cursor,
    limit: PAGE_SIZE,
  });
  return apiRequest(path, TransactionPageSchema, { signal });
}

export const accountTransactionsQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: accountKeys.transactions(id),
    queryFn: ({ pageParam, signal }) => fetchAccountTransactions(id, pageParam, signal),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextCursorOf,
    structuralSharing: keepTerminalPages,
    meta: { firstPage: (signal) => fetchAccountTransactions(id, FIRST_PAGE, signal) },
  });
