import { BalanceListSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { accountKeys } from './keys';

function fetchAccountBalances(id: string, signal?: AbortSignal) {
  return apiRequest(
    `/bff/api/v1/ledger/accounts/${encodeURIComponent(id)}/balances`,
    BalanceListSchema,
    { signal },
  );
}

export const accountBalancesQuery = (id: string) =>
  queryOptions({
    queryKey: accountKeys.balances(id),
    queryFn: ({ signal }) => fetchAccountBalances(id, signal),
    select: (list) => list.items,
  });
