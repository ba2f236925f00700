import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

const MAX_QUERY_RETRIES = 2;

/** One page of a cursor-paged list, as the console's infinite queries hold them. */
export type ListPage = { items: readonly { id: string }[]; nextCursor: string | null };

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /**
       * An infinite list's first page, fetched on its own. A live event refreshes a long list
       * with this and merges it into the loaded pages (`app/live-lists.ts`) instead of
       * refetching every loaded page.
       */
      firstPage?: (signal: AbortSignal) => Promise<ListPage>;
    };
  }
}

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
