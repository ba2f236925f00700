import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setApiOrigin } from '../lib/api-client';
import { FakeWebSocket } from '../test/fake-web-socket';
import { envelope, startTestServer } from '../test/test-server';
import type { TestServer } from '../test/test-server';
import { Providers } from './providers';

const session = {
  operator: { username: 'support', role: 'support' },
  csrfToken: 'csrf-1',
  upstream: { kind: 'sandbox' },
  organization: { id: 'org_test' },
};
const unauthenticated = envelope('UNAUTHENTICATED', 401, 'r-401');

let server: TestServer;
let isSignedIn = false;
beforeAll(async () => {
  // The relay socket stays silent: this test is about the 401 of a REST request.
  vi.stubGlobal('WebSocket', FakeWebSocket);
  server = await startTestServer();
  setApiOrigin(server.origin);
  server.route('GET', '/bff/auth/me', () => (isSignedIn ? { body: session } : unauthenticated));
  server.route('POST', '/bff/auth/login', (request) => {
    const body = request.body as { username: string; password: string };
    if (body.password !== 'right') return unauthenticated;
    isSignedIn = true;
    return { body: session };
  });
  server.route('GET', '/bff/api/v1/wallets', () =>
    isSignedIn ? { body: { items: [], nextCursor: null } } : unauthenticated,
  );
});
afterAll(async () => {
  vi.unstubAllGlobals();
  setApiOrigin(null);
  await server.close();
});

describe('session expiry', () => {
  it('sends a signed-out operator to sign-in and back to the page and filters they asked for', async () => {
    window.history.pushState({}, '', '/wallets?status=ACTIVE');
    const user = userEvent.setup();
    render(<Providers />);
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(window.location.pathname).toBe('/sign-in');
    expect(new URLSearchParams(window.location.search).get('returnTo')).toBe(
      '/wallets?status=ACTIVE',
    );

    await user.type(screen.getByLabelText('Username'), 'support');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('The username or password is not correct.')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'right');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { name: 'Wallets' });
    expect(`${window.location.pathname}${window.location.search}`).toBe('/wallets?status=ACTIVE');
    // Support operators are not offered wallet creation.
    expect(screen.queryByRole('button', { name: 'Create wallet' })).not.toBeInTheDocument();
    expect(
      screen.getByText('Only treasury or admin operators can create wallets.'),
    ).toBeInTheDocument();

    // The session ends server-side: the next request's 401 says "Signed out" in place, and
    // signing in again comes back to the same page and filters.
    await screen.findByText('No wallet matches these filters');
    isSignedIn = false;
    await user.selectOptions(screen.getByLabelText('Status'), 'DISABLED');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByRole('heading', { name: 'Signed out' })).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('Your session ended');
    expect(`${window.location.pathname}${window.location.search}`).toBe('/wallets?status=DISABLED');
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Sign in again' }));
    await screen.findByRole('heading', { name: 'Sign in' });
    await user.type(screen.getByLabelText('Username'), 'support');
    await user.type(screen.getByLabelText('Password'), 'right');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { name: 'Wallets' });
    expect(`${window.location.pathname}${window.location.search}`).toBe('/wallets?status=DISABLED');
  });
});
