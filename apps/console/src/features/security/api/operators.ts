import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  OneTimePasswordSchema,
  OperatorListSchema,
  OperatorSummarySchema,
  PasskeyListSchema,
  type CreateOperatorRequest,
  type UpdateOperatorRequest,
} from '@settlement/protocol';
import { z } from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import { securityKeys } from './keys';

export const operatorsQuery = () =>
  queryOptions({
    queryKey: securityKeys.operators(),
    queryFn: ({ signal }) => apiRequest('/bff/operators', OperatorListSchema, { signal }),
  });

const operatorPath = (username: string) => `/bff/operators/${encodeURIComponent(username)}`;

export type OperatorChange =
  | { kind: 'create'; operator: CreateOperatorRequest }
  | { kind: 'update'; username: string; change: UpdateOperatorRequest }
  | { kind: 'reset-password'; username: string }
  | { kind: 'remove-passkey'; username: string; passkeyId: string };

/** Every admin change of operators; a one-time password comes back from create and reset. */
export function useOperatorMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: OperatorChange) => {
      switch (change.kind) {
        case 'create':
          return apiRequest('/bff/operators', OneTimePasswordSchema, {
            method: 'POST',
            body: change.operator,
          });
        case 'update':
          await apiRequest(operatorPath(change.username), OperatorSummarySchema, {
            method: 'PATCH',
            body: change.change,
          });
          return null;
        case 'reset-password':
          return apiRequest(
            `${operatorPath(change.username)}/reset-password`,
            OneTimePasswordSchema,
            {
              method: 'POST',
            },
          );
        case 'remove-passkey':
          await apiRequest(
            `${operatorPath(change.username)}/passkeys/${encodeURIComponent(change.passkeyId)}`,
            z.unknown(),
            { method: 'DELETE' },
          );
          return null;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.all }),
  });
}

export const operatorPasskeysQuery = (username: string) =>
  queryOptions({
    queryKey: [...securityKeys.operators(), username, 'passkeys'] as const,
    queryFn: ({ signal }) =>
      apiRequest(`${operatorPath(username)}/passkeys`, PasskeyListSchema, { signal }),
  });
