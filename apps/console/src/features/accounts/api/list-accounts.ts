import { AccountSchema, listEnvelope } from '@settlement/protocol';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { FIRST_PAGE, PAGE_SIZE, nextCursorOf } from '../../../lib/paging';
import { accountKeys } from './keys';
import type { AccountFilters } from './keys';

const AccountPageSchema = listEnvelope(AccountSchema);

function fetchAccounts(filters: AccountFilters, cursor: string | null, signal?: AbortSignal) {
  const path = withQuery('/bff/api/v1/ledger/accounts', { ...filters, cursor, limit: PAGE_SIZE });
  return apiRequest(path, AccountPageSchema, { signal });
}

export const accountListQuery = (filters: AccountFilters) =>
  infiniteQueryOptions({
    queryKey: accountKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchAccounts(filters, pageParam, signal),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextCursorOf,
  });
