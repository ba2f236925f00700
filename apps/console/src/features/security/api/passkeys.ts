import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { PasskeyListSchema } from '@settlement/protocol';
import { z } from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import { enrollPasskey } from '../../../lib/passkeys';
import { securityKeys } from './keys';

export const passkeysQuery = () =>
  queryOptions({
    queryKey: securityKeys.passkeys(),
    queryFn: ({ signal }) => apiRequest('/bff/auth/passkeys', PasskeyListSchema, { signal }),
  });

export function useAddPasskeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enrollPasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.passkeys() }),
  });
}

export function useRemovePasskeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/bff/auth/passkeys/${encodeURIComponent(id)}`, z.unknown(), {
        method: 'DELETE',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.passkeys() }),
  });
}
