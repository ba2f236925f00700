import type { QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { PendingSignInSchema, type SignInResult } from '@settlement/protocol';
import { setCsrfToken } from '../../../lib/api-client';
import { resetSessionEnd } from '../session-end';
import { sessionKeys } from './keys';

/** Whether signing in still has a step to go (and which). */
export function pendingStepOf(result: SignInResult) {
  const pending = PendingSignInSchema.safeParse(result);
  return pending.success ? pending.data : null;
}

/** Every sign-in step answers the same way: done means the session is the operator's. */
export function useSignInResult(queryClient: QueryClient) {
  return useCallback(
    (result: SignInResult) => {
      setCsrfToken(result.csrfToken);
      if (pendingStepOf(result)) return;
      resetSessionEnd();
      queryClient.setQueryData(sessionKeys.me(), result);
    },
    [queryClient],
  );
}
