import { OperationViewSchema } from '@settlement/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { transactionKeys } from './keys';

/**
 * POST /bff/operations/{operationId}/abandon: the BFF reconciles first and abandons only a
 * withdrawal the service proved not to have; the answer is the operation's state after that.
 */
function abandonOperation(operationId: string) {
  return apiRequest(
    `/bff/operations/${encodeURIComponent(operationId)}/abandon`,
    OperationViewSchema,
    { method: 'POST' },
  );
}

export function useAbandonOperationMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: abandonOperation,
    onSuccess: (view) => {
      queryClient.setQueryData(transactionKeys.operation(view.operationId), view);
    },
  });
}
