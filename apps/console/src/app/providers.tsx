import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { sessionKeys } from '../features/session/api/keys';
import { setUnauthenticatedHandler } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from './router';

export function Providers() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    // Any 401 means the session ended: forget it, and the session gate sends the operator to
    // sign-in with a return address.
    setUnauthenticatedHandler(() => {
      client.setQueryData(sessionKeys.me(), null);
    });
    return client;
  });
  const [router] = useState(() => createAppRouter());
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster position="bottom-right" closeButton />
    </QueryClientProvider>
  );
}
