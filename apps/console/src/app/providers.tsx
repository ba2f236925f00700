import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { endSession } from '../features/session/session-end';
import { setUnauthenticatedHandler } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from './router';

export function Providers() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    // Any 401 means the session ended: the session gate says "Signed out" in place, with a
    // way to sign in again and come back.
    setUnauthenticatedHandler(() => {
      endSession(client, 'ended');
    });
    return client;
  });
  const [router] = useState(() => createAppRouter());
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {/*
        Toasts never cover a page's primary action: those sit in the page header's right-hand
        actions and, on phones, in a sticky bar at the bottom. So: top centre below the app
        header on wide screens; on phones over the app header itself (menu and sign-out only).
      */}
      <Toaster
        position="top-center"
        offset={{ top: 72 }}
        mobileOffset={{ top: 4, left: 8, right: 8 }}
        theme="system"
        closeButton
      />
    </QueryClientProvider>
  );
}
