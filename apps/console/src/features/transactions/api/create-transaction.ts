import { TransactionSchema, WithdrawalRequestCreatedSchema } from '@settlement/protocol';
import type { CreateTransactionRequest } from '@settlement/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import { transactionKeys } from './keys';

export type CreateTransactionInput = { request: CreateTransactionRequest; operationId: string };

/**
 * The two successful answers: 201 the withdrawal was sent (the policy allowed it), or 202 it
 * waits for approvals as a withdrawal request and nothing has gone upstream yet.
 */
const CreateTransactionOutcomeSchema = z.union([
  z.pipe(
    WithdrawalRequestCreatedSchema,
    z.transform(({ withdrawalRequest }) => ({
      kind: 'awaiting-approval' as const,
      request: withdrawalRequest,
    })),
  ),
  z.pipe(
    TransactionSchema,
    z.transform((transaction) => ({ kind: 'created' as const, transaction })),
  ),
]);

/** POST /api/v1/transactions under the form's operation id: at most one withdrawal per form. */
export function createTransaction({ request, operationId }: CreateTransactionInput) {
  return apiRequest('/bff/api/v1/transactions', CreateTransactionOutcomeSchema, {
    method: 'POST',
    body: request,
    operationId,
  });
}

export function useCreateTransactionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTransaction,
    onSuccess: (outcome) => {
      // A request awaiting approval counts against the limits: earlier dry runs are stale.
      void queryClient.invalidateQueries({ queryKey: transactionKeys.dryRuns() });
      if (outcome.kind === 'awaiting-approval') return;
      queryClient.setQueryData(transactionKeys.detail(outcome.transaction.id), outcome.transaction);
      return queryClient.invalidateQueries({ queryKey: transactionKeys.lists() });
    },
  });
}
