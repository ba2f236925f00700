import { useState } from 'react';
import { Outlet, ScrollRestoration, useNavigate, useNavigation } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { CopyableId } from '../../components/ui/copy-button';
import { useApprovalsInboxCount } from '../../features/governance/api/approvals-inbox';
import { useLogoutMutation } from '../../features/session/api/logout';
import { useIsSlow } from '../../lib/use-is-slow';
import { CommandPalette } from './command-palette';
import { DirectoryProvider } from './directory-provider';
import { LiveIndicator } from './live-indicator';
import { LiveUpdatesMount } from './live-updates-mount';
import { MainNav } from './main-nav';
import { NavDrawer } from './nav-drawer';
import { navItemsFor } from './nav-items';
import { useSession } from './session-context';

function SandboxTag() {
  return (
    <span className="mt-2 inline-block rounded bg-amber-300 px-2 py-0.5 text-xs font-bold tracking-wide text-amber-950 uppercase">
      Sandbox
    </span>
  );
}

export function AppShell() {
  const { session } = useSession();
  const navigation = useNavigation();
  const isPageSlow = useIsSlow(navigation.state === 'loading');
  const navigate = useNavigate();
  const logout = useLogoutMutation();
  const isSandbox = session.upstream.kind === 'sandbox';
  const badges = { approvals: useApprovalsInboxCount(session.operator) };
  const [isMenuOpen, setIsMenuOpen] = useState(false);

  const handleSignOut = () => {
    logout.mutate(undefined, {
      onSettled: () => {
        void navigate('/sign-in', { replace: true });
      },
    });
  };

  const organization = (
    <div className="border-t border-slate-700 px-5 py-4 text-xs text-slate-300">
      <p className="font-medium text-slate-200">Organization</p>
      {/* Whole and wrapped: a time-ordered id's head is its clock, so a clipped one tells nothing. */}
      <p className="mt-0.5 font-mono break-all">{session.organization?.id ?? '—'}</p>
    </div>
  );

  return (
    <div className="flex min-h-screen">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <LiveUpdatesMount />
      {/* The sidebar from lg up; below it the same navigation opens in the drawer. */}
      <aside className="hidden w-56 shrink-0 bg-slate-900 text-slate-100 lg:block">
        <div className="sticky top-0 flex h-screen flex-col">
          <div className="px-5 pt-5 pb-4">
            <p className="text-sm font-semibold tracking-tight text-white">Settlement Console</p>
            {isSandbox ? <SandboxTag /> : null}
          </div>
          <MainNav badges={badges} />
          {organization}
        </div>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
          <div className="flex items-center justify-between gap-2 px-3 py-2 sm:gap-4 sm:px-6 sm:py-3">
            <div className="flex min-w-0 items-center gap-2 text-sm sm:gap-3">
              <NavDrawer isOpen={isMenuOpen} onOpenChange={setIsMenuOpen}>
                <div className="px-5 pb-3 text-sm">
                  <p className="font-semibold text-white">Settlement Console</p>
                  <p className="mt-1 text-slate-300">
                    {session.operator.username} ({session.operator.role})
                  </p>
                  {isSandbox ? <SandboxTag /> : null}
                </div>
                <MainNav
                  badges={badges}
                  onNavigate={() => {
                    setIsMenuOpen(false);
                  }}
                />
                {organization}
              </NavDrawer>
              {session.organization ? (
                <span className="hidden items-center gap-1 text-slate-600 xl:inline-flex">
                  Org <CopyableId value={session.organization.id} label="organization id" isShort />
                </span>
              ) : null}
              <span className="hidden md:inline">
                {isSandbox ? (
                  <Badge tone="warning">Sandbox upstream</Badge>
                ) : (
                  <Badge tone="info">Live upstream</Badge>
                )}
              </span>
              <LiveIndicator />
            </div>
            <div className="flex shrink-0 items-center gap-2 text-sm sm:gap-3">
              <CommandPalette pages={navItemsFor(session.operator.role)} />
              <span className="hidden text-slate-800 sm:inline">
                <span className="sr-only">Signed in as </span>
                <span className="font-medium">{session.operator.username}</span>
                <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700 capitalize">
                  {session.operator.role}
                </span>
              </span>
              <Button size="sm" variant="ghost" onClick={handleSignOut} disabled={logout.isPending}>
                Sign out
              </Button>
            </div>
          </div>
          {/* Below md the bar has no room for the badge beside its buttons (at 320 px not even a
              short one), so there a strip under it says so, and stays while the page scrolls.
              Only the sandbox gets one: a live console can never be taken for a sandbox. */}
          {isSandbox ? (
            <p className="bg-amber-100 px-3 py-0.5 text-center text-xs font-medium text-amber-950 md:hidden">
              Sandbox: simulated chain, no real funds
            </p>
          ) : null}
        </header>
        {navigation.state === 'loading' ? (
          <div
            role="progressbar"
            aria-label="Loading page"
            className="h-0.5 w-full animate-pulse bg-indigo-600"
          />
        ) : null}
        {/* A page's code comes from the console server: a hung one holds the old page in place. */}
        <p aria-live="polite" className="px-3 pt-2 text-xs text-slate-700 empty:hidden sm:px-6">
          {isPageSlow ? 'Still loading the page: the console server is slow to answer…' : ''}
        </p>
        <main
          id="main"
          tabIndex={-1}
          className="mx-auto w-full max-w-7xl min-w-0 flex-1 px-3 py-4 focus:outline-none sm:px-6 sm:py-6"
        >
          <DirectoryProvider>
            <Outlet />
          </DirectoryProvider>
        </main>
        {/*
          As pages of a site: another page opens at its top (on a phone, sending from the end of
          a long review landed halfway down the transaction), Back returns to where the page was
          left. A page's own URL state (filters, views, searches) keeps its place instead.
        */}
        <ScrollRestoration />
      </div>
    </div>
  );
}
