import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

const MAX_QUERY_RETRIES = 2;

/**
 * A failed read that took this long was not refused: the BFF spent its own three attempts
 * waiting on an upstream that does not answer. Asking again would hold the page another half
 * minute for the same answer (and triple the calls on a struggling upstream), so the error is
 * shown at once, with "Try again". Quick failures (a 503 storm, a restart) are still retried.
 */
export const SLOW_FAILURE_MS = 10_000;

/** Reads retry only when the interface says so, and not after a slow failure. */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  return (
    isApiError(error) &&
    error.retryable &&
    error.elapsedMs < SLOW_FAILURE_MS &&
    failureCount < MAX_QUERY_RETRIES
  );
}

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

/** Reads retry as `shouldRetryRead` says; mutations never retry on their own. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: shouldRetryRead,
      },
      mutations: { retry: false },
    },
  });
}
