import { PolicySchema, type PolicyDocumentInput } from '@settlement/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { governanceKeys } from './keys';

/** Sends the whole document; the BFF validates it and stores the next version. */
function savePolicy(document: PolicyDocumentInput) {
  return apiRequest('/bff/policy', PolicySchema, { method: 'PUT', body: document });
}

export function useSavePolicyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePolicy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: governanceKeys.policy() }),
  });
}
