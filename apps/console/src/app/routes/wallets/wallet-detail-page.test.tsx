import {
  AssetCatalogSchema,
  BalanceListSchema,
  WalletSchema,
  type WithdrawalRequest,
} from '@settlement/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withdrawalRequestListQuery } from '../../../features/governance/api/withdrawal-requests';
import { withdrawalRequestFixture } from '../../../test/governance-fixtures';
import { renderWithApp, sessionFor } from '../../../test/render';
import { screenIs } from '../../../test/screen-width';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { WalletDetailPage } from './wallet-detail-page';

const wallet = WalletSchema.parse({
  id: 'wal_1',
  chain: 'tron:nile',
  accountId: 'acc_1',
  accountName: 'Merchant A',
  address: 'TDHHmYT4BeuUDw4JQPMFbTayhNrSJtLxWo',
  status: 'ACTIVE',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const catalog = AssetCatalogSchema.parse({
  items: [
    {
      asset: 'TRX',
      name: 'TRX',
      decimals: 6,
      chains: [{ chain: 'tron:nile', enabled: true, contractAddress: null }],
    },
  ],
});
const balances = BalanceListSchema.parse({
  items: [
    {
      asset: 'TRX',
      chain: 'tron:nile',
      postedBalance: '20000000',
      reservedBalance: '0',
      availableBalance: '20000000',
    },
  ],
});

const UNREADABLE =
  'Open withdrawal requests could not be read: Available may include money they already promise.';

let server: TestServer;
/** Withdrawal requests by the `status` the list asks for. */
let requestsByStatus: Partial<Record<string, WithdrawalRequest[]>>;
/** The list of this status answers 503 (none unless a test sets it). */
let failingStatus: string | null;
/** The lists answer once this settles. */
let listsAnswered: Promise<void>;

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/api/v1/wallets/wal_1', () => ({ body: wallet }));
  server.route('GET', '/bff/api/v1/wallets/wal_1/balances', () => ({ body: balances }));
  server.route('GET', '/bff/api/v1/assets', () => ({ body: catalog }));
  server.route('GET', '/bff/api/v1/transactions', () => ({
    body: { items: [], nextCursor: null },
  }));
  server.route('GET', '/bff/withdrawal-requests', async (request) => {
    await listsAnswered;
    const status = new URL(request.path, server.origin).searchParams.get('status') ?? '';
    if (status === failingStatus) return envelope('UPSTREAM_UNAVAILABLE', 503, 'bff_req_1');
    return { body: { items: requestsByStatus[status] ?? [] } };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  screenIs('desktop');
  // 8.9 TRX awaiting approval and 5 TRX approved from this wallet; 1 TRX from another.
  requestsByStatus = {
    AWAITING_APPROVAL: [
      withdrawalRequestFixture({ id: 'wr_waiting' }),
      withdrawalRequestFixture({ id: 'wr_other', walletId: 'wal_2', amountAtomic: '1000000' }),
    ],
    APPROVED: [
      withdrawalRequestFixture({ id: 'wr_sending', status: 'APPROVED', amountAtomic: '5000000' }),
    ],
  };
  failingStatus = null;
  listsAnswered = Promise.resolve();
});

function renderPage() {
  return renderWithApp(
    <Routes>
      <Route path="/wallets/:walletId" element={<WalletDetailPage />} />
    </Routes>,
    { path: '/wallets/wal_1', session: sessionFor('treasury') },
  );
}

function headers(): string[] {
  const table = screen.getByRole('table', { name: 'Wallet balances' });
  return within(table)
    .getAllByRole('columnheader')
    .map((th) => th.textContent);
}

describe('WalletDetailPage balances', () => {
  it("with both request lists read, show what this wallet's open requests take of each asset", async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Wallet balances' });
    // Amounts are exact once the catalog's decimals are read.
    await waitFor(() => {
      expect(
        within(table)
          .getAllByRole('row')
          .map((row) => row.textContent),
      ).toEqual([
        'AssetChainPostedReservedAvailableIn open requests',
        'TRXtron:nile2002013.9 in 2',
      ]);
    });
    expect(screen.queryByText(/could not be read/)).not.toBeInTheDocument();
  });

  it('while the request lists are still loading, claim nothing: no column and no warning', async () => {
    let release: () => void = () => undefined;
    listsAnswered = new Promise((resolve) => {
      release = resolve;
    });
    renderPage();
    await screen.findByRole('table', { name: 'Wallet balances' });
    await expect
      .poll(() => server.requests.filter((r) => r.path.startsWith('/bff/withdrawal-requests')))
      .toHaveLength(2);
    expect(headers()).not.toContain('In open requests');
    expect(screen.queryByText(/could not be read/)).not.toBeInTheDocument();

    release();
    expect(await screen.findByRole('columnheader', { name: 'In open requests' })).toBeVisible();
  });

  it('when a request list answers 503, say Available may include what open requests promise, and show no column', async () => {
    failingStatus = 'AWAITING_APPROVAL';
    renderPage();
    expect(await screen.findByText(/Open withdrawal requests could not be read/)).toHaveTextContent(
      UNREADABLE,
    );
    expect(screen.getByText(/could not be read/)).toHaveRole('note');
    expect(headers()).not.toContain('In open requests');
  });

  it('when a later refresh of a list fails, drop the column for the warning rather than keep the old sum', async () => {
    const { queryClient } = renderPage();
    await screen.findByRole('columnheader', { name: 'In open requests' });
    failingStatus = 'APPROVED';
    await queryClient.refetchQueries({
      queryKey: withdrawalRequestListQuery('APPROVED').queryKey,
    });
    expect(await screen.findByText(/could not be read/)).toHaveTextContent(UNREADABLE);
    expect(headers()).not.toContain('In open requests');
  });
});
