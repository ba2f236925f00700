import { TransactionSchema, WalletSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { supportKeys } from './keys';

const nullableString = z.string().nullable().optional();

export const SupportResultSchema = z.looseObject({
  query: z.string(),
  kinds: z.array(z.string()).default([]),
  transactions: z.array(TransactionSchema).default([]),
  wallets: z.array(WalletSchema).default([]),
  events: z
    .array(
      z.looseObject({
        id: z.string(),
        type: z.string(),
        occurredAt: z.string(),
        correlationId: nullableString,
        data: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .default([]),
  requests: z
    .array(
      z.looseObject({
        at: z.string(),
        operator: nullableString,
        operation: nullableString,
        method: z.string(),
        path: z.string(),
        status: z.number().nullable().optional(),
        durationMs: z.number().nullable().optional(),
        requestId: nullableString,
        upstreamRequestId: nullableString,
        correlationId: nullableString,
        idempotencyKey: nullableString,
      }),
    )
    .default([]),
  actions: z
    .array(
      z.looseObject({
        at: z.string(),
        operator: nullableString,
        action: z.string(),
        outcome: nullableString,
        idempotencyKey: nullableString,
        upstreamRequestId: nullableString,
        correlationId: nullableString,
      }),
    )
    .default([]),
  /** The BFF's journal of idempotent operations (withdrawals, wallets, MPC initialize). */
  operations: z
    .array(
      z.looseObject({
        operationId: z.string(),
        operation: z.string(),
        operator: nullableString,
        state: z.string(),
        status: z.number().nullable().optional(),
        idempotencyKey: nullableString,
        clientReference: nullableString,
        upstreamRequestId: nullableString,
        correlationId: nullableString,
        createdAt: z.string(),
      }),
    )
    .default([]),
});
export type SupportResult = z.infer<typeof SupportResultSchema>;

/** Blank and invisible characters (zero-width spaces, direction marks) at either end. */
const PASTE_DEBRIS = /^[\s\p{Cf}]+|[\s\p{Cf}]+$/gu;

/**
 * An id as pasted from chat, e-mail or a log: surrounding spaces, line breaks and invisible
 * characters are not part of it (the BFF accepts visible ASCII only, so it would refuse them).
 */
export function cleanSupportQuery(q: string): string {
  return q.replace(PASTE_DEBRIS, '');
}

export function searchSupport(q: string, signal?: AbortSignal) {
  return apiRequest(withQuery('/bff/support/search', { q }), SupportResultSchema, { signal });
}

/** Cleans `q` itself, so a link or an address bar with a padded id works as well as the form. */
export const supportSearchQuery = (q: string) => {
  const clean = cleanSupportQuery(q);
  return queryOptions({
    queryKey: supportKeys.search(clean),
    queryFn: ({ signal }) => searchSupport(clean, signal),
    enabled: clean !== '',
  });
};
