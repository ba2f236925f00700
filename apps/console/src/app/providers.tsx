import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { meQuery } from '../features/session/api/me';
import { endSession } from '../features/session/session-end';
import { setUnauthenticatedHandler } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from './router';
import { DeferredToaster } from './shell/deferred-toaster';

export function Providers() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    // Any 401 means the session ended: the session gate says "Signed out" in place, with a
    // way to sign in again and come back.
    setUnauthenticatedHandler(() => {
      endSession(client, 'ended');
    });
    // The session probe starts now, beside the first page's chunk, instead of after it: the
    // session gate renders only once the router has loaded the matched page's module.
    // A failed probe is the session gate's to show (its own query sees the same result).
    client.query(meQuery()).catch(() => undefined);
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
