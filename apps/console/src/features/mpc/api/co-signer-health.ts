import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import { mpcKeys } from './keys';

const CoSignerHealthSchema = z.looseObject({
  reachable: z.boolean(),
  ok: z.boolean(),
  httpStatus: z.optional(z.nullable(z.number())),
  checkedAt: z.string(),
});
export type CoSignerHealth = z.infer<typeof CoSignerHealthSchema>;

function fetchCoSignerHealth(signal?: AbortSignal) {
  return apiRequest('/bff/co-signer/health', CoSignerHealthSchema, { signal });
}

export const coSignerHealthQuery = () =>
  queryOptions({
    queryKey: mpcKeys.coSignerHealth(),
    queryFn: ({ signal }) => fetchCoSignerHealth(signal),
    refetchInterval: 5_000,
    staleTime: 0,
  });
