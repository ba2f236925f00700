import { AccountSchema } from '@settlement/protocol';
import type { CreateAccountRequest } from '@settlement/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { accountKeys } from './keys';

function createAccount(request: CreateAccountRequest) {
  return apiRequest('/bff/api/v1/ledger/accounts', AccountSchema, {
    method: 'POST',
    body: request,
  });
}

export function useCreateAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.lists() }),
  });
}
