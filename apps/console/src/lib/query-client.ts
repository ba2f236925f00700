import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

const MAX_QUERY_RETRIES = 2;

/** Reads retry only when the interface says so; mutations never retry on their own. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: (failureCount, error) =>
          isApiError(error) && error.retryable && failureCount < MAX_QUERY_RETRIES,
      },
      mutations: { retry: false },
    },
  });
}
