import { WalletSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { walletKeys } from './keys';

function fetchWallet(id: string, signal?: AbortSignal) {
  return apiRequest(`/bff/api/v1/wallets/${encodeURIComponent(id)}`, WalletSchema, { signal });
}

export const walletDetailQuery = (id: string) =>
  queryOptions({
    queryKey: walletKeys.detail(id),
    queryFn: ({ signal }) => fetchWallet(id, signal),
  });
