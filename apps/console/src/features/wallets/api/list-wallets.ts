import { WalletSchema, listEnvelope } from '@settlement/protocol';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { FIRST_PAGE, PAGE_SIZE, nextCursorOf } from '../../../lib/paging';
import { walletKeys } from './keys';
import type { WalletFilters } from './keys';

const WalletPageSchema = listEnvelope(WalletSchema);

function fetchWallets(
  filters: WalletFilters,
  cursor: string | null,
  signal?: AbortSignal,
  limit: string = PAGE_SIZE,
) {
  const path = withQuery('/bff/api/v1/wallets', { ...filters, cursor, limit });
  return apiRequest(path, WalletPageSchema, { signal });
}

export const walletListQuery = (filters: WalletFilters) =>
  infiniteQueryOptions({
    queryKey: walletKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchWallets(filters, pageParam, signal),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextCursorOf,
  });
