import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { SessionContext } from '../app/shell/session-context';
import type { Me as Session } from '@settlement/protocol';
import { permissionsFor } from '../features/session/permissions';
import { createQueryClient } from '../lib/query-client';

export function sessionFor(
  role: Session['operator']['role'],
  kind: 'sandbox' | 'remote' = 'sandbox',
): Session {
  return {
    operator: { username: role, role },
    csrfToken: 'csrf-test-token',
    upstream: { kind },
    organization: { id: 'org_test' },
  };
}

/** Renders `ui` at `path` inside a router, a fresh query client and (optionally) a session. */
export function renderWithApp(
  ui: ReactElement,
  options: { path?: string; session?: Session } = {},
) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: Infinity } });
  const router = createMemoryRouter([{ path: '*', element: ui }], {
    initialEntries: [options.path ?? '/'],
  });
  const session = options.session;
  const tree = (
    <QueryClientProvider client={queryClient}>
      {session ? (
        <SessionContext value={{ session, permissions: permissionsFor(session) }}>
          <RouterProvider router={router} />
        </SessionContext>
      ) : (
        <RouterProvider router={router} />
      )}
    </QueryClientProvider>
  );
  return { ...render(tree), queryClient, router };
}
