import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ErrorPanel } from '../../components/ui/error-panel';
import { meQuery } from '../../features/session/api/me';
import { permissionsFor } from '../../features/session/permissions';
import { SessionContext } from './session-context';

/** Renders its children for a signed-in operator; otherwise goes to sign-in and back after. */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { data: session, error, isPending, refetch } = useQuery(meQuery());
  const value = useMemo(
    () => (session ? { session, permissions: permissionsFor(session) } : null),
    [session],
  );

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
    const returnTo = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/sign-in?returnTo=${encodeURIComponent(returnTo)}`} replace />;
  }
  return <SessionContext value={value}>{children}</SessionContext>;
}
