import { SupportSearchResultSchema } from '@settlement/protocol';
import type { SupportEvent, SupportSearchResult } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { transactionKeys } from './keys';

/** The stored events (oldest first) and upstream calls of one transaction. */
export type TransactionTimeline = Pick<SupportSearchResult, 'events' | 'requests'>;

/**
 * From the BFF's support search for the transaction id, parsed by the shared contract: the
 * search answers for every kind of id, so only the events about this transaction are kept.
 */
export async function fetchTransactionTimeline(
  id: string,
  signal?: AbortSignal,
): Promise<TransactionTimeline> {
  const result = await apiRequest(
    withQuery('/bff/support/search', { q: id }),
    SupportSearchResultSchema,
    { signal },
  );
  return {
    events: result.events
      .filter((event) => relatesTo(event, id))
      .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt)),
    requests: result.requests,
  };
}

function relatesTo(event: SupportEvent, id: string): boolean {
  const { data } = event;
  return (
    data.transactionId === id ||
    data.sourceTransactionId === id ||
    data.destinationTransactionId === id
  );
}

export const transactionTimelineQuery = (id: string) =>
  queryOptions({
    queryKey: transactionKeys.timeline(id),
    queryFn: ({ signal }) => fetchTransactionTimeline(id, signal),
  });
