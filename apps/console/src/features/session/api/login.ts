import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SignInResultSchema, type SignInResult } from '@settlement/protocol';
import { apiRequest, setCsrfToken } from '../../../lib/api-client';
import { useSignInResult } from './sign-in-result';

type Credentials = { username: string; password: string };

/** The password step: signed in, or the next step (one-time password, passkey, enrollment). */
async function login(credentials: Credentials): Promise<SignInResult> {
  const result = await apiRequest('/bff/auth/login', SignInResultSchema, {
    method: 'POST',
    body: credentials,
    isSessionProbe: true,
  });
  setCsrfToken(result.csrfToken);
  return result;
}

export function useLoginMutation() {
  const onResult = useSignInResult(useQueryClient());
  return useMutation({ mutationFn: login, onSuccess: onResult });
}
