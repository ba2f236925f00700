import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { transactionKeys } from './keys';

/** The stored events and upstream calls of one transaction, from the BFF's support search. */
export const TimelineEventSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  occurredAt: z.string(),
  correlationId: z.string().nullable().optional(),
  data: z.record(z.string(), z.unknown()).default({}),
  sequence: z.number().nullable().optional(),
});
export type TimelineEvent = z.infer<typeof TimelineEventSchema>;

export const RequestRecordSchema = z.looseObject({
  at: z.string(),
  operator: z.string().nullable().optional(),
  operation: z.string().nullable().optional(),
  method: z.string(),
  path: z.string(),
  status: z.number().nullable().optional(),
  requestId: z.string().nullable().optional(),
  upstreamRequestId: z.string().nullable().optional(),
  correlationId: z.string().nullable().optional(),
});
export type RequestRecord = z.infer<typeof RequestRecordSchema>;

const TimelineSchema = z.looseObject({
  events: z.array(TimelineEventSchema).default([]),
  requests: z.array(RequestRecordSchema).default([]),
});

export async function fetchTransactionTimeline(id: string, signal?: AbortSignal) {
  const result = await apiRequest(withQuery('/bff/support/search', { q: id }), TimelineSchema, {
    signal,
  });
  return {
    events: result.events
      .filter((event) => relatesTo(event, id))
      .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt)),
    requests: result.requests,
  };
}

function relatesTo(event: TimelineEvent, id: string): boolean {
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
