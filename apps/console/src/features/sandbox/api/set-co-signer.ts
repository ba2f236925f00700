import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';

/** Sandbox tool: switch the embedded simulated Co-Signer on or off. */
function setCoSignerOnline(isOnline: boolean) {
  return apiRequest('/bff/sandbox/co-signer', z.unknown(), {
    method: 'PUT',
    body: { online: isOnline },
  });
}

export function useSetCoSignerMutation(onSettled?: () => Promise<unknown>) {
  return useMutation({ mutationFn: setCoSignerOnline, ...(onSettled ? { onSettled } : {}) });
}
