import { PolicySchema } from '@settlement/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderWithApp, sessionFor } from '../../../test/render';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { Reply, TestServer } from '../../../test/test-server';
import { routeWithdrawalBasics, walletPage } from '../transactions/withdrawal-page-routes';
import { PolicyPage } from './policy-page';

const NOW = '2026-01-01T00:00:00Z';
const policy = PolicySchema.parse({
  version: 3,
  rules: [{ id: 'book', name: 'Address book', match: {}, action: 'ALLOW' }],
  limits: [],
  settings: { requestExpiryHours: 24 },
  createdBy: 'admin',
  createdAt: NOW,
});
const wallet = (n: number) => ({
  id: `wal_${n}`,
  chain: 'tron:nile',
  accountId: 'acc_1',
  accountName: 'Treasury',
  address: `TXYZopYRdj2D9XRtbG411XZZ3kM5Vk${String(n).padStart(4, '0')}`,
  status: 'ACTIVE',
  createdAt: NOW,
  updatedAt: NOW,
});

let server: TestServer;
let activeWallets: unknown[];
/** When set, the second page of ACTIVE wallets answers with this error. */
let secondPageError: Reply | null;

beforeAll(async () => {
  server = await startApiTestServer();
  routeWithdrawalBasics(server, NOW);
  server.route('GET', '/bff/policy', () => ({ body: policy }));
  server.route('GET', '/bff/policy/versions', () => ({ body: { items: [policy] } }));
  server.route('GET', '/bff/api/v1/wallets', (request) =>
    walletPage(request, activeWallets, secondPageError),
  );
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  activeWallets = Array.from({ length: 201 }, (_, i) => wallet(i + 1));
  secondPageError = null;
});

describe('PolicyPage', () => {
  it('offers every ACTIVE wallet to the dry run, past the first page', async () => {
    renderWithApp(<PolicyPage />, { path: '/policy', session: sessionFor('admin') });
    expect(await screen.findByRole('heading', { name: 'Version 3' })).toBeInTheDocument();
    const picker = await screen.findByLabelText('From wallet');
    // The prompt and 201 wallets: the 201st is on the second page of 200.
    expect(picker.querySelectorAll('option')).toHaveLength(1 + 201);
    expect(within(picker).getByRole('option', { name: /wal_201|0201/ })).toBeInTheDocument();
  });

  it('says the wallets could not be read, not that there are none, and reads them again on retry', async () => {
    secondPageError = envelope('UPSTREAM_UNAVAILABLE', 503, 'req-wallets');
    renderWithApp(<PolicyPage />, { path: '/policy', session: sessionFor('admin') });
    expect(await screen.findByText('The wallets could not be read')).toBeInTheDocument();
    expect(screen.queryByText('No ACTIVE wallet')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('From wallet')).not.toBeInTheDocument();
    // The rest of the page does not depend on the wallets.
    expect(await screen.findByRole('heading', { name: 'Version 3' })).toBeInTheDocument();

    secondPageError = null;
    await userEvent.setup().click(screen.getByRole('button', { name: /Retry|Try again/ }));
    const picker = await screen.findByLabelText('From wallet');
    expect(picker.querySelectorAll('option')).toHaveLength(1 + 201);
  });

  it('lets only an admin edit the policy, and tells anyone else why not', async () => {
    renderWithApp(<PolicyPage />, { path: '/policy', session: sessionFor('treasury') });
    expect(await screen.findByRole('heading', { name: 'Version 3' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit policy' })).not.toBeInTheDocument();
    expect(screen.getByText('Only an admin can change the policy.')).toBeInTheDocument();
  });
});
