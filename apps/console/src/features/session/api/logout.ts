import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest, setCsrfToken } from '../../../lib/api-client';
import { announceSignOut, beginSignOutHere } from '../session-end';
import { sessionKeys } from './keys';

async function logout(): Promise<void> {
  await apiRequest('/bff/auth/logout', z.unknown(), { method: 'POST', isSessionProbe: true });
}

export function useLogoutMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onMutate: beginSignOutHere,
    onSettled: () => {
      setCsrfToken(null);
      queryClient.clear();
      queryClient.setQueryData(sessionKeys.me(), null);
      // The cookie is shared: every other tab of this console is signed out too, and says so.
      announceSignOut();
    },
  });
}
