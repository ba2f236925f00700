import { clsx } from 'clsx';
import { NavLink, Outlet, useNavigate, useNavigation } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button, focusRing } from '../../components/ui/button';
import { CopyableId } from '../../components/ui/copy-button';
import { useApprovalsInboxCount } from '../../features/governance/api/approvals-inbox';
import { useLogoutMutation } from '../../features/session/api/logout';
import { LiveIndicator } from './live-indicator';
import { LiveUpdatesMount } from './live-updates-mount';
import { useSession } from './session-context';

const NAV = [
  { to: '/', label: 'Overview', end: true },
  { to: '/accounts', label: 'Accounts', end: false },
  { to: '/wallets', label: 'Wallets', end: false },
  { to: '/transactions', label: 'Transactions', end: false },
  { to: '/approvals', label: 'Approvals', end: false },
  { to: '/policy', label: 'Policy', end: false },
  { to: '/address-book', label: 'Address book', end: false },
  { to: '/events', label: 'Events', end: false },
  { to: '/support', label: 'Support', end: false },
  { to: '/setup', label: 'Setup', end: false },
] as const;

export function AppShell() {
  const { session } = useSession();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const logout = useLogoutMutation();
  const isSandbox = session.upstream.kind === 'sandbox';
  const inboxCount = useApprovalsInboxCount(session.operator);

  const handleSignOut = () => {
    logout.mutate(undefined, {
      onSettled: () => {
        void navigate('/sign-in', { replace: true });
      },
    });
  };

  return (
    <div className="flex min-h-screen">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <LiveUpdatesMount />
      <aside className="w-56 shrink-0 bg-slate-900 text-slate-100">
        <div className="sticky top-0 flex h-screen flex-col">
          <div className="px-5 pt-5 pb-4">
            <p className="text-sm font-semibold tracking-tight text-white">Settlement Console</p>
            {isSandbox ? (
              <span className="mt-2 inline-block rounded bg-amber-300 px-2 py-0.5 text-xs font-bold tracking-wide text-amber-950 uppercase">
                Sandbox
              </span>
            ) : null}
          </div>
          <nav aria-label="Main" className="flex-1 px-3">
            <ul className="space-y-0.5">
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    end={item.end}
                    className={({ isActive }) =>
                      clsx(
                        'block rounded-md px-3 py-2 text-sm font-medium',
                        focusRing,
                        isActive
                          ? 'bg-slate-700 text-white'
                          : 'text-slate-200 hover:bg-slate-800 hover:text-white',
                      )
                    }
                  >
                    {item.label}
                    {item.to === '/approvals' && inboxCount > 0 ? (
                      <span className="ml-2 rounded-full bg-amber-300 px-1.5 py-0.5 text-xs font-bold text-amber-950">
                        {inboxCount}
                        <span className="sr-only"> waiting for your approval</span>
                      </span>
                    ) : null}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="border-t border-slate-700 px-5 py-4 text-xs text-slate-300">
            <p className="font-medium text-slate-200">Organization</p>
            <p className="mt-0.5 truncate font-mono" title={session.organization?.id ?? 'unknown'}>
              {session.organization?.id ?? '—'}
            </p>
          </div>
        </div>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-20 flex items-center justify-between gap-4 border-b border-slate-200 bg-white/95 px-6 py-3 backdrop-blur">
          <div className="flex min-w-0 items-center gap-3 text-sm">
            {session.organization ? (
              <span className="hidden items-center gap-1 text-slate-600 md:inline-flex">
                Org <CopyableId value={session.organization.id} label="organization id" isShort />
              </span>
            ) : null}
            {isSandbox ? (
              <Badge tone="warning">Sandbox upstream</Badge>
            ) : (
              <Badge tone="info">Live upstream</Badge>
            )}
            <LiveIndicator />
          </div>
          <div className="flex items-center gap-3 text-sm">
            <span className="text-slate-800">
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
        </header>
        {navigation.state === 'loading' ? (
          <div
            role="progressbar"
            aria-label="Loading page"
            className="h-0.5 w-full animate-pulse bg-indigo-600"
          />
        ) : null}
        <main
          id="main"
          tabIndex={-1}
          className="mx-auto w-full max-w-7xl flex-1 px-6 py-6 focus:outline-none"
        >
          <Outlet />
        </main>
      </div>
    </div>
  );
}
