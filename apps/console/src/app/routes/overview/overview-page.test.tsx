import type { MpcStatus, Overview, WithdrawalRequest } from '@settlement/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { confirmedTrx } from '../../../features/transactions/transaction-fixtures';
import { withdrawalRequestFixture } from '../../../test/governance-fixtures';
import { renderWithApp, sessionFor } from '../../../test/render';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { Reply, TestServer } from '../../../test/test-server';
import { OverviewPage } from './overview-page';
import { expectStillWaitingOnceSlow } from '../../../test/slow-answer';

const overview: Overview = {
  generatedAt: '2026-03-01T10:00:00.000Z',
  totals: [],
  wallets: [],
  isPartial: false,
  unreadWallets: 0,
  inFlight: { count: 0, oldestCreatedAt: null, totals: [], oldest: [] },
};
const trxTotal: Overview['totals'][number] = {
  asset: 'TRX',
  chain: 'tron:nile',
  postedAtomic: '10000000',
  reservedAtomic: '0',
  availableAtomic: '10000000',
  walletCount: 1,
};
/** A wallet of the overview whose balances could not be read. */
const unreadWallet = (id: string): Overview['wallets'][number] => ({
  id,
  accountId: 'acc_1',
  accountName: 'Ops',
  chain: 'tron:nile',
  address: `TAddress${id}`,
  status: 'ACTIVE',
  label: null,
  balances: null,
});
const readyMpc: MpcStatus = {
  orgId: 'org_test',
  keyId: 'key_1',
  keyStatus: 'ACTIVE',
  coSigner: { status: 'ONLINE', lastSeenAt: null },
  chains: [{ chain: 'tron:nile', ready: true, reason: null }],
};

let server: TestServer;
/** The overview's answer waits for this (each test sets it). */
let overviewReply: Promise<Reply>;
/** Withdrawal requests by the `status` the list asks for (none unless a test sets some). */
let requestsByStatus: Partial<Record<string, WithdrawalRequest[]>>;
/** The list of this status answers 503 (none unless a test sets it). */
let failingStatus: string | null;
/** What the MPC status answers (ready unless a test says otherwise). */
let mpcStatus: MpcStatus;

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/overview', () => overviewReply);
  server.route('GET', '/bff/api/v1/mpc/status', () => ({ body: mpcStatus }));
  server.route('GET', '/bff/api/v1/assets', () => ({ body: { items: [] } }));
  server.route('GET', '/bff/withdrawal-requests', (request) => {
    const status = new URL(request.path, server.origin).searchParams.get('status') ?? '';
    if (status === failingStatus) return envelope('UPSTREAM_UNAVAILABLE', 503, 'bff_req_1');
    return { body: { items: requestsByStatus[status] ?? [] } };
  });
  server.route('GET', '/bff/api/v1/transactions', () => ({
    body: { items: [confirmedTrx], nextCursor: null },
  }));
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  overviewReply = Promise.resolve({ body: overview });
  requestsByStatus = {};
  failingStatus = null;
  mpcStatus = readyMpc;
});

describe('OverviewPage', () => {
  it('without a wallet, links to the accounts a wallet is created from', async () => {
    renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
    await screen.findByText('No wallets yet');
    expect(screen.getByRole('link', { name: 'account' })).toHaveAttribute('href', '/accounts');
  });

  it('asks for only the transactions its recent activity shows', async () => {
    renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
    expect(await screen.findByRole('list', { name: 'Recent activity' })).toBeInTheDocument();
    const lists = server.requests
      .map((r) => r.path)
      .filter((path) => path.startsWith('/bff/api/v1/transactions'));
    expect(lists).toEqual(['/bff/api/v1/transactions?limit=8']);
  });

  it('asks for the lists its panels show while the overview is still unanswered, not after it', async () => {
    overviewReply = new Promise(() => undefined);
    renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
    expect(screen.getByRole('status', { name: 'Loading the overview' })).toBeInTheDocument();
    await vi.waitFor(() => {
      expect(server.requests.map((r) => r.path).sort()).toEqual(
        expect.arrayContaining([
          '/bff/api/v1/transactions?limit=8',
          '/bff/withdrawal-requests?status=APPROVED',
          '/bff/withdrawal-requests?status=AWAITING_APPROVAL',
        ]),
      );
    });
    // Asked once each: the panels that show them later read what was fetched.
    expect(
      server.requests.filter((r) => r.path.startsWith('/bff/withdrawal-requests')),
    ).toHaveLength(2);
  });

  it('shows one placeholder until the overview is read, then every panel at once', async () => {
    let release: () => void = () => undefined;
    overviewReply = new Promise((resolve) => {
      release = () => {
        resolve({ body: overview });
      };
    });
    renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
    expect(screen.getByRole('status', { name: 'Loading the overview' })).toBeInTheDocument();
    // The MPC status and the recent activity arrive first: still no panel grows in place.
    await expect.poll(() => server.requests.length).toBeGreaterThanOrEqual(6);
    expect(screen.queryByRole('heading', { name: 'Health' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Recent activity' })).not.toBeInTheDocument();

    release();
    expect(await screen.findByRole('heading', { name: 'Holdings' })).toBeInTheDocument();
    for (const name of ['In flight', 'Health', 'Wallets', 'Recent activity']) {
      expect(screen.getByRole('heading', { name })).toBeInTheDocument();
    }
    expect(screen.queryByRole('status', { name: 'Loading the overview' })).not.toBeInTheDocument();
  });

  it('a failed overview shows its error once, with "Try again", which reads it again', async () => {
    overviewReply = Promise.resolve(envelope('UPSTREAM_UNAVAILABLE', 503, 'bff_req_overview'));
    renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The overview could not be read');
    expect(alert).toHaveTextContent('bff_req_overview');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(
      screen.getAllByText('Not shown: the overview could not be read (see Holdings).'),
    ).toHaveLength(2);

    overviewReply = Promise.resolve({ body: { ...overview, totals: [trxTotal] } });
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Holdings' })).toBeInTheDocument();
    await expect.poll(() => screen.queryAllByRole('alert')).toHaveLength(0);
    expect(screen.queryByText(/Not shown/)).not.toBeInTheDocument();
  });

  it('with no wallet readable, does not call it "nothing held" but says how many were not read', async () => {
    overviewReply = Promise.resolve({
      body: {
        ...overview,
        unreadWallets: 2,
        wallets: [unreadWallet('w1'), unreadWallet('w2')],
      },
    });
    renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
    expect(
      await screen.findByText('2 wallet(s) could not be read and are not counted.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Nothing held yet')).not.toBeInTheDocument();
  });

  describe('an overview the service is slow to answer', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('says above its placeholder that it is still waiting, and not before', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      overviewReply = new Promise(() => undefined);
      renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
      expect(screen.getByRole('status', { name: 'Loading the overview' })).toBeInTheDocument();
      await expectStillWaitingOnceSlow();
      expect(screen.getByRole('status', { name: 'Loading the overview' })).toBeInTheDocument();
    });
  });

  it.each<[string, MpcStatus, string]>([
    [
      'an offline Co-Signer holds back an active key',
      {
        ...readyMpc,
        coSigner: { status: 'OFFLINE', lastSeenAt: null },
        chains: [{ chain: 'tron:nile', ready: false, reason: 'Co-Signer offline' }],
      },
      'MPC: key active, not ready on tron:nile — The Co-Signer is offline. Open Setup',
    ],
    [
      'no key yet',
      {
        ...readyMpc,
        keyId: null,
        keyStatus: null,
        chains: [{ chain: 'tron:nile', ready: false, reason: 'The MPC key is not initialized.' }],
      },
      'MPC: not initialized, not ready on tron:nile Finish setup',
    ],
  ])(
    'says why MPC is not ready when %s, and what the Setup link is for',
    async (_, status, line) => {
      mpcStatus = status;
      renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
      const health = await screen.findByRole('list', { name: 'Health' });
      expect(within(health).getAllByRole('listitem')[1]).toHaveTextContent(line);
    },
  );

  it('names the event stream with a link to the Events page and says its state last, in one text node (the words after the state moved as the stream went live: a layout shift)', async () => {
    renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
    const health = await screen.findByRole('list', { name: 'Health' });
    const line = within(health).getAllByRole('listitem').at(-1);
    expect(within(line ?? health).getByRole('link', { name: 'Event stream' })).toHaveAttribute(
      'href',
      '/events',
    );
    const text = line?.lastElementChild;
    expect(text?.lastChild?.nodeType).toBe(Node.TEXT_NODE);
    expect(text?.lastChild?.textContent).toBe(
      'connecting — Connecting to live updates; pages load meanwhile.',
    );
  });

  it('counts the requests approved but not yet sent upstream beside those awaiting approval, each linked to its list', async () => {
    requestsByStatus = {
      AWAITING_APPROVAL: [withdrawalRequestFixture({ id: 'wr_waiting' })],
      APPROVED: [
        withdrawalRequestFixture({ id: 'wr_a', status: 'APPROVED' }),
        withdrawalRequestFixture({ id: 'wr_b', status: 'APPROVED' }),
      ],
    };
    renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
    expect(
      await screen.findByRole('link', { name: '2 approved requests being sent' }),
    ).toHaveAttribute('href', '/approvals?view=APPROVED');
    expect(screen.getByRole('link', { name: '1 request awaiting approval' })).toHaveAttribute(
      'href',
      '/approvals?view=AWAITING_APPROVAL',
    );
    expect(server.requests.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        '/bff/withdrawal-requests?status=AWAITING_APPROVAL',
        '/bff/withdrawal-requests?status=APPROVED',
      ]),
    );
  });

  it("under each asset's Available, shows what open requests of both lists take of it and what is not yet promised", async () => {
    overviewReply = Promise.resolve({ body: { ...overview, totals: [trxTotal] } });
    requestsByStatus = {
      AWAITING_APPROVAL: [withdrawalRequestFixture({ id: 'wr_waiting', amountAtomic: '3000000' })],
      APPROVED: [
        withdrawalRequestFixture({ id: 'wr_sending', status: 'APPROVED', amountAtomic: '5000000' }),
      ],
    };
    renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
    const committed = await screen.findByText('In open requests (2)');
    // The catalog is empty here, so amounts show in atomic units.
    expect(committed.nextElementSibling).toHaveTextContent('8000000 (atomic)TRX');
    expect(screen.getByText('Not yet promised').nextElementSibling).toHaveTextContent(
      '2000000 (atomic)TRX',
    );
    expect(screen.getByText(/reserves an amount only once its request is sent/)).toHaveRole('note');
  });

  it('with a full list of requests awaiting approval, says the open requests exceed available by at least', async () => {
    overviewReply = Promise.resolve({ body: { ...overview, totals: [trxTotal] } });
    requestsByStatus = {
      AWAITING_APPROVAL: Array.from({ length: 200 }, (_, i) =>
        withdrawalRequestFixture({ id: `wr_${i}`, amountAtomic: '1000000' }),
      ),
    };
    renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
    const committed = await screen.findByText('In open requests (200 or more)');
    expect(committed.nextElementSibling).toHaveTextContent('at least 200000000 (atomic)TRX');
    expect(
      screen.getByText('Open requests exceed available by').nextElementSibling,
    ).toHaveTextContent('at least 190000000 (atomic)TRX');
  });

  it('when a list of requests answers 503, the holdings say Available may include what open requests promise, and nothing is called not yet promised', async () => {
    overviewReply = Promise.resolve({ body: { ...overview, totals: [trxTotal] } });
    requestsByStatus = {
      APPROVED: [
        withdrawalRequestFixture({ id: 'wr_sending', status: 'APPROVED', amountAtomic: '5000000' }),
      ],
    };
    failingStatus = 'AWAITING_APPROVAL';
    renderWithApp(<OverviewPage />, { session: sessionFor('treasury') });
    expect(await screen.findByText(/Open withdrawal requests could not be read/)).toHaveTextContent(
      'Open withdrawal requests could not be read: Available may include money they already promise.',
    );
    expect(screen.queryByText(/In open requests|Not yet promised/)).not.toBeInTheDocument();
  });
});
