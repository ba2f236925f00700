import { startAuthentication } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  PasskeyRequestOptionsSchema,
  SignInResultSchema,
  type SignInResult,
} from '@settlement/protocol';
import { apiRequest } from '../../../lib/api-client';
import { enrollPasskey } from '../../../lib/passkeys';
import { useSignInResult } from './sign-in-result';

const probe = { method: 'POST', isSessionProbe: true } as const;

async function signInWithPasskey(): Promise<SignInResult> {
  const optionsJSON = await apiRequest(
    '/bff/auth/passkeys/login/options',
    PasskeyRequestOptionsSchema,
    probe,
  );
  const credential = await startAuthentication({ optionsJSON });
  return apiRequest('/bff/auth/passkeys/login/verify', SignInResultSchema, {
    ...probe,
    body: { credential },
  });
}

type PasswordChange = { currentPassword: string; newPassword: string };

function changePassword(change: PasswordChange): Promise<SignInResult> {
  return apiRequest('/bff/auth/password', SignInResultSchema, { ...probe, body: change });
}

export function usePasskeySignInMutation() {
  const onResult = useSignInResult(useQueryClient());
  return useMutation({ mutationFn: signInWithPasskey, onSuccess: onResult });
}

export function useEnrollAtSignInMutation() {
  const onResult = useSignInResult(useQueryClient());
  return useMutation({
    mutationFn: enrollPasskey,
    onSuccess: (enrolled) => {
      onResult(enrolled.signIn);
    },
  });
}

export function useChangePasswordMutation() {
  const onResult = useSignInResult(useQueryClient());
  return useMutation({ mutationFn: changePassword, onSuccess: onResult });
}
