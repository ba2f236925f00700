import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RELAY_CLOSE } from '@settlement/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiOrigin } from '../lib/api-client';
import { FakeWebSocket } from '../test/fake-web-socket';
import { envelope, startTestServer } from '../test/test-server';
import type { TestServer } from '../test/test-server';
import { Providers } from './providers';

const session = {
  operator: { username: 'treasury', role: 'treasury' },
  csrfToken: 'csrf-1',
  upstream: { kind: 'sandbox' },
  organization: { id: 'org_test' },
};
const CHANNEL = 'settlement-console:session';

let server: TestServer;
let isSignedIn = true;
beforeAll(async () => {
  server = await startTestServer();
  setApiOrigin(server.origin);
  server.route('GET', '/bff/auth/me', () =>
    isSignedIn ? { body: session } : envelope('UNAUTHENTICATED', 401, 'r-401'),
  );
  server.route('POST', '/bff/auth/logout', () => {
    isSignedIn = false;
    return { status: 204 };
  });
  server.route('GET', '/bff/api/v1/wallets', () => ({ body: { items: [], nextCursor: null } }));
});
afterAll(async () => {
  setApiOrigin(null);
  await server.close();
});
beforeEach(() => {
  isSignedIn = true;
  FakeWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The app's socket, once the live-updates chunk (loaded after the first paint) opened it. */
const openedSocket = () => vi.waitFor(() => FakeWebSocket.latest());

describe('signing out in another tab', () => {
  it('turns this tab into "Signed out" in place and leaves storage it does not own alone', async () => {
    window.history.pushState({}, '', '/wallets?status=ACTIVE');
    sessionStorage.setItem('someone-else:draft', '{"amount":"1"}');
    render(<Providers />);
    await screen.findByRole('heading', { name: 'Wallets' });

    // Another tab of the same console signs out; the relay's close usually arrives first.
    (await openedSocket()).acceptOpen();
    FakeWebSocket.latest().closeFromServer(RELAY_CLOSE.sessionEnded.code);
    const otherTab = new BroadcastChannel(CHANNEL);
    otherTab.postMessage({ kind: 'signed-out' });
    otherTab.close();

    expect(await screen.findByRole('heading', { name: 'Signed out' })).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.getByRole('alert')).toHaveTextContent('You signed out in another tab');
    });
    expect(screen.getByRole('link', { name: 'Sign in again' })).toHaveAttribute(
      'href',
      `/sign-in?returnTo=${encodeURIComponent('/wallets?status=ACTIVE')}`,
    );
    expect(sessionStorage.getItem('someone-else:draft')).toBe('{"amount":"1"}');
  });
});

describe('signing out in this tab', () => {
  it('tells the other tabs, and goes to sign-in itself instead of saying "Signed out"', async () => {
    window.history.pushState({}, '', '/wallets');
    const user = userEvent.setup();
    const heard: unknown[] = [];
    const otherTab = new BroadcastChannel(CHANNEL);
    otherTab.onmessage = (event: MessageEvent) => {
      heard.push(event.data);
    };
    render(<Providers />);
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    // The BFF closes this session's sockets at logout: not news to the tab that signed out.
    (await openedSocket()).closeFromServer(RELAY_CLOSE.sessionEnded.code);

    await screen.findByRole('heading', { name: 'Sign in' });
    await waitFor(() => {
      expect(heard).toEqual([{ kind: 'signed-out' }]);
    });
    expect(screen.queryByRole('heading', { name: 'Signed out' })).not.toBeInTheDocument();
    otherTab.close();
  });
});

describe('the relay', () => {
  it('closing with "session ended" (expiry, revocation) turns the tab into "Signed out", without reconnecting', async () => {
    window.history.pushState({}, '', '/wallets');
    render(<Providers />);
    await screen.findByRole('heading', { name: 'Wallets' });
    const socket = await openedSocket();
    socket.acceptOpen();
    expect(await screen.findByRole('status', { name: 'Live updates: Live' })).toBeInTheDocument();

    isSignedIn = false;
    socket.closeFromServer(RELAY_CLOSE.sessionEnded.code, RELAY_CLOSE.sessionEnded.reason);

    expect(await screen.findByRole('heading', { name: 'Signed out' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Your session ended');
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('a dropped socket whose session is gone (the reconnect would be refused) also signs out', async () => {
    window.history.pushState({}, '', '/wallets');
    render(<Providers />);
    await screen.findByRole('heading', { name: 'Wallets' });
    const socket = await openedSocket();
    socket.acceptOpen();

    isSignedIn = false;
    // What a browser sees of a refused upgrade or a lost network: an abnormal close.
    socket.closeFromServer(1006);

    expect(await screen.findByRole('heading', { name: 'Signed out' })).toBeInTheDocument();
  });

  it('a dropped socket of a live session only reconnects', async () => {
    window.history.pushState({}, '', '/wallets');
    render(<Providers />);
    await screen.findByRole('heading', { name: 'Wallets' });
    (await openedSocket()).acceptOpen();
    const probes = () => server.requests.filter((r) => r.path === '/bff/auth/me').length;
    const before = probes();

    FakeWebSocket.latest().closeFromServer(1006);

    await waitFor(() => {
      expect(probes()).toBe(before + 1);
    });
    expect(await screen.findByRole('status', { name: /Live updates: Reconnecting/ })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Wallets' })).toBeInTheDocument();
  });
});
