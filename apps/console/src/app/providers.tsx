import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { endSession } from '../features/session/session-end';
import { setUnauthenticatedHandler } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from './router';
import { startSessionProbe } from './session-probe';
import { DeferredToaster } from './shell/deferred-toaster';

export function Providers() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    // Any 401 means the session ended: the session gate says "Signed out" in place, with a
    // way to sign in again and come back.
    setUnauthenticatedHandler(() => {
      endSession(client, 'ended');
    });
    startSessionProbe(client);
    return client;
  });
  const [router] = useState(() => createAppRouter());
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <DeferredToaster />
    </QueryClientProvider>
  );
}
