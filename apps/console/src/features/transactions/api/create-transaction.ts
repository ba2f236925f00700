import { TransactionSchema } from '@settlement/protocol';
import type { CreateTransactionRequest } from '@settlement/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { transactionKeys } from './keys';

export type CreateTransactionInput = { request: CreateTransactionRequest; operationId: string };

/** POST /api/v1/transactions under the form's operation id: at most one withdrawal per form. */
export function createTransaction({ request, operationId }: CreateTransactionInput) {
  return apiRequest('/bff/api/v1/transactions', TransactionSchema, {
    method: 'POST',
    body: request,
    operationId,
  });
}

export function useCreateTransactionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTransaction,
    onSuccess: (transaction) => {
      queryClient.setQueryData(transactionKeys.detail(transaction.id), transaction);
      return queryClient.invalidateQueries({ queryKey: transactionKeys.lists() });
    },
  });
}
