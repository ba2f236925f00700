import { BalanceListSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { walletKeys } from './keys';

function fetchWalletBalances(id: string, signal?: AbortSignal) {
  return apiRequest(`/bff/api/v1/wallets/${encodeURIComponent(id)}/balances`, BalanceListSchema, {
    signal,
  });
}

export const walletBalancesQuery = (id: string) =>
  queryOptions({
    queryKey: walletKeys.balances(id),
    queryFn: ({ signal }) => fetchWalletBalances(id, signal),
    select: (list) => list.items,
  });
