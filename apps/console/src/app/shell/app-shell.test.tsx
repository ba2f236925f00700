import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { permissionsFor } from '../../features/session/permissions';
import { setApiOrigin } from '../../lib/api-client';
import { useUrlFilters } from '../../lib/url-filters';
import { createQueryClient } from '../../lib/query-client';
import { SLOW_ANSWER_MS } from '../../lib/use-is-slow';
import { FakeWebSocket } from '../../test/fake-web-socket';
import { renderWithApp, sessionFor } from '../../test/render';
import { startTestServer, type TestServer } from '../../test/test-server';
import { AppShell } from './app-shell';
import { navItemsFor } from './nav-items';
import { SessionContext } from './session-context';

let server: TestServer;
beforeAll(async () => {
  vi.stubGlobal('WebSocket', FakeWebSocket);
  server = await startTestServer();
  setApiOrigin(server.origin);
  server.route('GET', '/bff/withdrawal-requests*', () => ({ body: { items: [] } }));
  server.route('GET', '/bff/config', () => ({ body: { explorers: [] } }));
});
afterAll(async () => {
  vi.unstubAllGlobals();
  setApiOrigin(null);
  await server.close();
});

/** The shell at `/` with these pages under it, signed in as treasury; its router. */
function renderShellWithPages(pages: RouteObject[]) {
  const session = sessionFor('treasury');
  const router = createMemoryRouter([{ path: '/', element: <AppShell />, children: pages }], {
    initialEntries: ['/'],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SessionContext value={{ session, permissions: permissionsFor(session) }}>
        <RouterProvider router={router} />
      </SessionContext>
    </QueryClientProvider>,
  );
  return router;
}

describe('the navigation drawer', () => {
  it('opens from the menu button with every navigation entry, and closes on a choice', async () => {
    const user = userEvent.setup();
    const { router } = renderWithApp(<AppShell />, { session: sessionFor('treasury') });
    const menuButton = await screen.findByRole('button', { name: 'Open menu' });
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();

    await user.click(menuButton);
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    const nav = within(drawer).getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(navItemsFor('treasury').map((item) => item.label));
    expect(menuButton).toHaveAttribute('aria-expanded', 'true');

    await user.click(within(nav).getByRole('link', { name: 'Wallets' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
    });
    expect(router.state.location.pathname).toBe('/wallets');
  });

  it('closes on Escape and gives focus back to the menu button', async () => {
    const user = userEvent.setup();
    renderWithApp(<AppShell />, { session: sessionFor('support') });
    const menuButton = await screen.findByRole('button', { name: 'Open menu' });
    await user.click(menuButton);
    await screen.findByRole('dialog', { name: 'Menu' });
    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
    });
    expect(menuButton).toHaveFocus();
  });

  it('keeps Sign out in the header, outside the drawer, so it is one tap away on a phone', async () => {
    renderWithApp(<AppShell />, { session: sessionFor('support') });
    const header = await screen.findByRole('banner');
    expect(within(header).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });
});

describe('the top bar', () => {
  it('ends its left group with the live badge, whose width (Connecting, then Live as the page opens) then moves nothing', async () => {
    renderWithApp(<AppShell />, { session: sessionFor('treasury') });
    const badge = await screen.findByRole('status', { name: /^Live updates:/ });
    // The bar's row of controls (under it, on a phone, may come the sandbox strip).
    const banner = badge.closest('header > div');
    expect(banner).not.toBeNull();
    // Nothing after the badge, up to the group that holds it beside the right-hand controls.
    let node: Element | null = badge;
    while (node && node.parentElement !== banner) {
      expect(node.nextElementSibling).toBeNull();
      node = node.parentElement;
    }
    expect(node?.nextElementSibling).toContainElement(
      screen.getByRole('button', { name: 'Sign out' }),
    );
  });

  it('says sandbox in the bar itself, and on a phone in a strip under it, never only in the drawer', async () => {
    renderWithApp(<AppShell />, { session: sessionFor('treasury', 'sandbox') });
    const header = await screen.findByRole('banner');
    // The drawer is closed: the bar alone must say which upstream money moves on. (Which of the
    // two shows at which width is the phone journey's to check; jsdom applies no styles.)
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
    expect(within(header).getByText('Sandbox upstream')).toBeInTheDocument();
    expect(within(header).getByText('Sandbox: simulated chain, no real funds')).toBeInTheDocument();
  });

  it('never shows a live console anything that reads as sandbox', async () => {
    renderWithApp(<AppShell />, { session: sessionFor('treasury', 'remote') });
    const header = await screen.findByRole('banner');
    expect(within(header).getByText('Live upstream')).toBeInTheDocument();
    expect(header).not.toHaveTextContent(/sandbox/i);
  });
});

describe('a page whose code the console server is slow to send', () => {
  it('keeps the page shown and says, after a while, that the next one is still loading', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const router = renderShellWithPages([
        { index: true, element: <p>The first page</p> },
        // A route chunk that never arrives: the server holds the request.
        { path: 'slow', lazy: () => new Promise<never>(() => undefined) },
      ]);
      expect(await screen.findByText('The first page')).toBeInTheDocument();
      void router.navigate('/slow');
      expect(await screen.findByRole('progressbar', { name: 'Loading page' })).toBeInTheDocument();
      expect(screen.queryByText(/Still loading the page/)).not.toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(SLOW_ANSWER_MS);
      expect(
        await screen.findByText('Still loading the page: the console server is slow to answer…'),
      ).toBeInTheDocument();
      expect(screen.getByText('The first page')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});

/** A page with a filter kept in its URL, as the transactions list has. */
function FilteredPage() {
  const [filters, setFilters] = useUrlFilters(['status'] as const);
  return (
    <button
      type="button"
      onClick={() => {
        setFilters({ status: 'FAILED' });
      }}
    >
      {filters.status ? `Showing ${filters.status}` : 'Only failed'}
    </button>
  );
}

describe('where a page opens, scrolled', () => {
  const scrolledTo = (y: number) => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  };
  afterEach(() => {
    scrolledTo(0);
    vi.restoreAllMocks();
  });

  it('opens another page at its top, keeps its place when the page filters, and returns there on Back', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const router = renderShellWithPages([
      { index: true, element: <p>The overview</p> },
      { path: 'transactions', element: <FilteredPage /> },
    ]);
    expect(await screen.findByText('The overview')).toBeInTheDocument();
    // Left halfway down the overview: the next page still opens at its top.
    scrolledTo(900);
    scrollTo.mockClear();
    await router.navigate('/transactions');
    await waitFor(() => {
      expect(scrollTo).toHaveBeenCalledWith(0, 0);
    });

    scrolledTo(600);
    scrollTo.mockClear();
    await userEvent.click(await screen.findByRole('button', { name: 'Only failed' }));
    expect(await screen.findByRole('button', { name: 'Showing FAILED' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?status=FAILED');
    expect(scrollTo).not.toHaveBeenCalled();

    await router.navigate('/');
    scrolledTo(0);
    scrollTo.mockClear();
    await router.navigate(-1);
    await waitFor(() => {
      expect(scrollTo).toHaveBeenCalledWith(0, 600);
    });
    expect(await screen.findByRole('button', { name: 'Showing FAILED' })).toBeInTheDocument();
  });
});
