import { queryOptions } from '@tanstack/react-query';
import { apiRequest, isApiError, setCsrfToken } from '../../../lib/api-client';
import { resetSessionEnd } from '../session-end';
import { sessionKeys } from './keys';
import { MeSchema, type Me } from '@settlement/protocol';

/** The current session, or null when signed out (401). */
export async function fetchMe(signal?: AbortSignal): Promise<Me | null> {
  try {
    const session = await apiRequest('/bff/auth/me', MeSchema, {
      signal,
      isSessionProbe: true,
    });
    setCsrfToken(session.csrfToken);
    // A session exists again (for instance signed in from another tab).
    resetSessionEnd();
    return session;
  } catch (error) {
    if (isApiError(error) && error.status === 401) {
      setCsrfToken(null);
      return null;
    }
    throw error;
  }
}

export const meQuery = () =>
  queryOptions({
    queryKey: sessionKeys.me(),
    queryFn: ({ signal }) => fetchMe(signal),
    staleTime: 60_000,
  });
