import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { EndedSessionsSchema, SessionListSchema } from '@settlement/protocol';
import { z } from 'zod/mini';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { securityKeys } from './keys';

/** The signed-in operator's sessions, or (admin) another operator's. */
export const sessionsQuery = (username: string | null) =>
  queryOptions({
    queryKey: securityKeys.sessions(username),
    queryFn: ({ signal }) =>
      apiRequest(withQuery('/bff/auth/sessions', { username }), SessionListSchema, { signal }),
  });

export type EndSessions = { kind: 'one'; id: string } | { kind: 'others' };

export function useEndSessionsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (end: EndSessions) =>
      end.kind === 'one'
        ? apiRequest(`/bff/auth/sessions/${encodeURIComponent(end.id)}`, z.unknown(), {
            method: 'DELETE',
          })
        : apiRequest('/bff/auth/sessions', EndedSessionsSchema, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...securityKeys.all, 'sessions'] }),
  });
}
