import { AccountDetailSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { accountKeys } from './keys';

function fetchAccount(id: string, signal?: AbortSignal) {
  return apiRequest(`/bff/api/v1/ledger/accounts/${encodeURIComponent(id)}`, AccountDetailSchema, {
    signal,
  });
}

export const accountDetailQuery = (id: string) =>
  queryOptions({
    queryKey: accountKeys.detail(id),
    queryFn: ({ signal }) => fetchAccount(id, signal),
  });
