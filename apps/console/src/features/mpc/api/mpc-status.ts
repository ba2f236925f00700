import { MpcStatusSchema } from '@settlement/protocol';
import type { MpcStatus } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { mpcKeys } from './keys';

function fetchMpcStatus(signal?: AbortSignal) {
  return apiRequest('/bff/api/v1/mpc/status', MpcStatusSchema, { signal });
}

function isFullyReady(status: MpcStatus | undefined): boolean {
  return (
    status?.keyStatus === 'ACTIVE' &&
    status.coSigner.status === 'ONLINE' &&
    status.chains.every((chain) => chain.ready)
  );
}

/** With `isWatching` (Setup), polls every 2 s until everything is ready. */
export const mpcStatusQuery = (isWatching = false) =>
  queryOptions({
    queryKey: mpcKeys.status(),
    queryFn: ({ signal }) => fetchMpcStatus(signal),
    refetchInterval: (query) => (isWatching && !isFullyReady(query.state.data) ? 2_000 : 15_000),
  });
