import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useMemo } from 'react';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ErrorPanel } from '../../components/ui/error-panel';
import { meQuery } from '../../features/session/api/me';
import { permissionsFor } from '../../features/session/permissions';
import {
  endSession,
  listenForSignOutElsewhere,
  useSessionEnd,
} from '../../features/session/session-end';
import { SessionContext } from './session-context';

// Shown only once a session ended in an open tab: not part of any first page.
const SignedOutScreen = lazy(() =>
  import('../../features/session/components/signed-out-screen').then((m) => ({
    default: m.SignedOutScreen,
  })),
);

/**
 * Renders its children for a signed-in operator. Not signed in: goes to sign-in and back after.
 * Signed out while the page was open (another tab, expiry, revocation): says so in place.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const queryClient = useQueryClient();
  const { data: session, error, isPending, refetch } = useQuery(meQuery());
  const endReason = useSessionEnd();
  useEffect(
    () =>
      listenForSignOutElsewhere(() => {
        endSession(queryClient, 'signed-out-elsewhere');
      }),
    [queryClient],
  );
  const value = useMemo(
    () => (session ? { session, permissions: permissionsFor(session) } : null),
    [session],
  );

  const returnTo = `${location.pathname}${location.search}${location.hash}`;
  // Before the pending and error states: a failed probe of a signed-out tab changes nothing.
  if (!value && endReason) {
    return (
      <Suspense fallback={null}>
        <SignedOutScreen reason={endReason} returnTo={returnTo} />
      </Suspense>
    );
  }
  if (isPending) {
    return (
      <div role="status" className="flex h-full items-center justify-center text-sm text-slate-600">
        Loading the console…
      </div>
    );
  }
  if (error) {
    return (
      <main className="mx-auto max-w-lg p-10">
        <h1 className="mb-4 text-lg font-semibold">The console cannot start</h1>
        <ErrorPanel error={error} onRetry={() => void refetch()} />
      </main>
    );
  }
  if (!value) {
    return <Navigate to={`/sign-in?returnTo=${encodeURIComponent(returnTo)}`} replace />;
  }
  return <SessionContext value={value}>{children}</SessionContext>;
}
