import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setApiOrigin } from '../../lib/api-client';
import { FakeWebSocket } from '../../test/fake-web-socket';
import { renderWithApp, sessionFor } from '../../test/render';
import { startTestServer, type TestServer } from '../../test/test-server';
import { AppShell } from './app-shell';
import { navItemsFor } from './nav-items';

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
