import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, setCsrfToken } from '../../../lib/api-client';
import { resetSessionEnd } from '../session-end';
import { sessionKeys } from './keys';
import { SessionSchema } from './session-schema';

export type Credentials = { username: string; password: string };

export async function login(credentials: Credentials) {
  const session = await apiRequest('/bff/auth/login', SessionSchema, {
    method: 'POST',
    body: credentials,
    isSessionProbe: true,
  });
  setCsrfToken(session.csrfToken);
  return session;
}

export function useLoginMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (session) => {
      resetSessionEnd();
      queryClient.setQueryData(sessionKeys.me(), session);
    },
  });
}
