import { OverviewSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { treasuryKeys } from './keys';

function fetchOverview(signal?: AbortSignal) {
  return apiRequest('/bff/overview', OverviewSchema, { signal });
}

/** Totals, wallets with balances and labels, withdrawals in flight (GET /bff/overview). */
export const overviewQuery = () =>
  queryOptions({
    queryKey: treasuryKeys.overview(),
    queryFn: ({ signal }) => fetchOverview(signal),
  });
