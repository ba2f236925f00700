import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import { mpcKeys } from './keys';

/** POST /api/v1/mpc/initialize; the BFF sends the two bytes `{}` under the org's durable key. */
function initializeMpc(operationId: string) {
  return apiRequest('/bff/api/v1/mpc/initialize', z.unknown(), {
    method: 'POST',
    body: {},
    operationId,
  });
}

export function useInitializeMpcMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: initializeMpc,
    onSettled: () => queryClient.invalidateQueries({ queryKey: mpcKeys.status() }),
  });
}
