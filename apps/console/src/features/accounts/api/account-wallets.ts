import { WalletSchema, listEnvelope } from '@settlement/protocol';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { FIRST_PAGE, PAGE_SIZE, nextCursorOf } from '../../../lib/paging';
import { accountKeys } from './keys';

const WalletPageSchema = listEnvelope(WalletSchema);

function fetchAccountWallets(id: string, cursor: string | null, signal?: AbortSignal) {
  const path = withQuery(`/bff/api/v1/ledger/accounts/${encodeURIComponent(id)}/wallets`, {
    cursor,
    limit: PAGE_SIZE,
  });
  return apiRequest(path, WalletPageSchema, { signal });
}

export const accountWalletsQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: accountKeys.wallets(id),
    queryFn: ({ pageParam, signal }) => fetchAccountWallets(id, pageParam, signal),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextCursorOf,
  });
