import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { endSession } from '../features/session/session-end';
import { setUnauthenticatedHandler } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from './router';
import { startSessionProbe } from './session-probe';
import { DeferredToaster } from './shell/deferred-toaster';

/** The console's query client, wired to end the session on any 401, with the session probe sent. */
export function createConsoleQueryClient(): QueryClient {
  const client = createQueryClient();
  // Any 401 means the session ended: the session gate says "Signed out" in place, with a
  // way to sign in again and come back.
  setUnauthenticatedHandler(() => {
    endSession(client, 'ended');
  });
  startSessionProbe(client);
  return client;
}

type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * The app's providers. `boot/start-console` creates the query client and router in tasks of
 * their own and hands them in; without them (tests) they are created on first render.
 */
export function Providers(props: { queryClient?: QueryClient; router?: AppRouter }) {
  const [queryClient] = useState(() => props.queryClient ?? createConsoleQueryClient());
  const [router] = useState(() => props.router ?? createAppRouter(queryClient));
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <DeferredToaster />
    </QueryClientProvider>
  );
}
