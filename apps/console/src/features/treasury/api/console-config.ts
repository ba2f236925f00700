import { ConsoleConfigSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { treasuryKeys } from './keys';

function fetchConsoleConfig(signal?: AbortSignal) {
  return apiRequest('/bff/config', ConsoleConfigSchema, { signal });
}

/** Block explorers per chain: configuration, so it is read once per session. */
export const consoleConfigQuery = () =>
  queryOptions({
    queryKey: treasuryKeys.config(),
    queryFn: ({ signal }) => fetchConsoleConfig(signal),
    staleTime: Infinity,
  });
