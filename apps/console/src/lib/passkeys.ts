import { startRegistration } from '@simplewebauthn/browser';
import { PasskeyCreationOptionsSchema, PasskeyEnrolledSchema } from '@settlement/protocol';
import { apiRequest } from './api-client';

/**
 * Creates a passkey on this device (the browser's own prompt): during sign-in when passkeys
 * are required, or another one later from the passkeys page.
 */
export async function enrollPasskey(name: string) {
  const optionsJSON = await apiRequest(
    '/bff/auth/passkeys/register/options',
    PasskeyCreationOptionsSchema,
    { method: 'POST', isSessionProbe: true },
  );
  const credential = await startRegistration({ optionsJSON });
  return apiRequest('/bff/auth/passkeys/register/verify', PasskeyEnrolledSchema, {
    method: 'POST',
    isSessionProbe: true,
    body: { name, credential },
  });
}
