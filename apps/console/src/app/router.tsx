import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { pageWithinDeadline } from '../lib/api-client';
import { assetCatalogQuery } from '../features/assets/api/asset-catalog';
import { mpcStatusQuery } from '../features/mpc/api/mpc-status';
import { meQuery } from '../features/session/api/me';
import { AppShell } from './shell/app-shell';
import { RequireSession } from './shell/require-session';
import { RouteError } from './shell/route-error';

function PageLoading() {
  return (
    <div role="status" className="p-10 text-sm text-slate-600">
      Loading the console…
    </div>
  );
}

/**
 * What the overview waits for before its panels appear (with the overview itself, which the
 * session probe already asks for), requested as the route matches: beside the page's chunk
 * instead of after it has loaded and rendered, which put two more round trips on the way to the
 * landing page's largest paint. Only once the probe says who is signed in: signed out, these
 * would answer 401, which ends the session instead of going to sign-in. Does not hold up the
 * navigation (the page's own queries take over whatever is in flight).
 */
function prefetchOverview(queryClient: QueryClient) {
  return () => {
    queryClient
      .query({ ...meQuery(), staleTime: 'static' })
      .then((session) => {
        if (!session) return;
        queryClient.query(mpcStatusQuery()).catch(() => undefined);
        queryClient.query(assetCatalogQuery()).catch(() => undefined);
      })
      .catch(() => undefined);
    return null;
  };
}

/** The overview's chunk: the landing page of every signed-in operator. */
function importOverviewPage() {
  return import('./routes/overview/overview-page');
}

/**
 * Starts loading the page chunk of the landing page when the console opens on it (`/`), before
 * the router exists: the router asks for it only once created and initialized, a task or two
 * after the entry has run, and the page's first paint (the overview's LCP) waits for it. The
 * router's own `lazy` import then gets the same module (one request). Other paths load theirs
 * through the router as before. Failures are left to the router, which reports them.
 */
export function startLandingPageImport(pathname: string): void {
  if (pathname === '/') importOverviewPage().catch(() => undefined);
}

/** The routes with every page's chunk under the read deadline (`pageWithinDeadline`). */
export function withPageDeadlines(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const { lazy, children } = route;
    const loaded =
      typeof lazy === 'function' ? { ...route, lazy: () => pageWithinDeadline(lazy()) } : route;
    return (
      children ? { ...loaded, children: withPageDeadlines(children) } : loaded
    ) as RouteObject;
  });
}

/** Every page is its own chunk: the first load carries only the shell. */
export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(
    withPageDeadlines([
      {
        path: '/sign-in',
        lazy: () => import('./routes/sign-in-page').then((m) => ({ Component: m.SignInPage })),
        ErrorBoundary: RouteError,
        HydrateFallback: PageLoading,
      },
      {
        path: '/',
        HydrateFallback: PageLoading,
        element: (
          <RequireSession>
            <AppShell />
          </RequireSession>
        ),
        ErrorBoundary: RouteError,
        children: [
          {
            ErrorBoundary: RouteError,
            children: [
              {
                index: true,
                loader: prefetchOverview(queryClient),
                lazy: () => importOverviewPage().then((m) => ({ Component: m.OverviewPage })),
              },
              {
                path: 'accounts',
                lazy: () =>
                  import('./routes/accounts/accounts-page').then((m) => ({
                    Component: m.AccountsPage,
                  })),
              },
              {
                path: 'accounts/:accountId',
                lazy: () =>
                  import('./routes/accounts/account-detail-page').then((m) => ({
                    Component: m.AccountDetailPage,
                  })),
              },
              {
                path: 'wallets',
                lazy: () =>
                  import('./routes/wallets/wallets-page').then((m) => ({
                    Component: m.WalletsPage,
                  })),
              },
              {
                path: 'wallets/:walletId',
                lazy: () =>
                  import('./routes/wallets/wallet-detail-page').then((m) => ({
                    Component: m.WalletDetailPage,
                  })),
              },
              {
                path: 'transactions',
                lazy: () =>
                  import('./routes/transactions/transactions-page').then((m) => ({
                    Component: m.TransactionsPage,
                  })),
              },
              {
                path: 'transactions/new',
                lazy: () =>
                  import('./routes/transactions/new-withdrawal-page').then((m) => ({
                    Component: m.NewWithdrawalPage,
                  })),
              },
              {
                path: 'transactions/:transactionId',
                lazy: () =>
                  import('./routes/transactions/transaction-detail-page').then((m) => ({
                    Component: m.TransactionDetailPage,
                  })),
              },
              {
                path: 'approvals',
                lazy: () =>
                  import('./routes/approvals/approvals-page').then((m) => ({
                    Component: m.ApprovalsPage,
                  })),
              },
              {
                path: 'approvals/:requestId',
                lazy: () =>
                  import('./routes/approvals/approval-detail-page').then((m) => ({
                    Component: m.ApprovalDetailPage,
                  })),
              },
              {
                path: 'policy',
                lazy: () =>
                  import('./routes/policy/policy-page').then((m) => ({ Component: m.PolicyPage })),
              },
              {
                path: 'address-book',
                lazy: () =>
                  import('./routes/address-book/address-book-page').then((m) => ({
                    Component: m.AddressBookPage,
                  })),
              },
              {
                path: 'events',
                lazy: () =>
                  import('./routes/events/events-page').then((m) => ({ Component: m.EventsPage })),
              },
              {
                path: 'support',
                lazy: () =>
                  import('./routes/support/support-page').then((m) => ({
                    Component: m.SupportPage,
                  })),
              },
              {
                path: 'timeline',
                lazy: () =>
                  import('./routes/timeline/timeline-page').then((m) => ({
                    Component: m.TimelinePage,
                  })),
              },
              {
                path: 'audit',
                lazy: () =>
                  import('./routes/audit/audit-page').then((m) => ({ Component: m.AuditPage })),
              },
              {
                path: 'passkeys',
                lazy: () =>
                  import('./routes/passkeys/passkeys-page').then((m) => ({
                    Component: m.PasskeysPage,
                  })),
              },
              {
                path: 'sessions',
                lazy: () =>
                  import('./routes/sessions/sessions-page').then((m) => ({
                    Component: m.SessionsPage,
                  })),
              },
              {
                path: 'operators',
                lazy: () =>
                  import('./routes/operators/operators-page').then((m) => ({
                    Component: m.OperatorsPage,
                  })),
              },
              {
                path: 'setup',
                lazy: () =>
                  import('./routes/setup/setup-page').then((m) => ({ Component: m.SetupPage })),
              },
              {
                path: '*',
                lazy: () =>
                  import('./routes/not-found-page').then((m) => ({ Component: m.NotFoundPage })),
              },
            ],
          },
        ],
      },
    ]),
  );
}
