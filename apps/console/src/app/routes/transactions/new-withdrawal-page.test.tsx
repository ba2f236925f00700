import { tronAddressFromPublicKey } from '@settlement/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { savePendingWithdrawal } from '../../../features/transactions/components/pending-withdrawal';
import { renderWithApp, sessionFor } from '../../../test/render';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { Reply, TestServer } from '../../../test/test-server';
import { NewWithdrawalPage } from './new-withdrawal-page';

const DESTINATION = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const NOW = '2026-01-01T00:00:00Z';
const wallet = {
  id: 'wal_1',
  chain: 'tron:nile',
  accountId: 'acc_1',
  accountName: 'Treasury',
  address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
  status: 'ACTIVE',
  createdAt: NOW,
  updatedAt: NOW,
};
// Another wallet of the organization, with a valid address of its own.
const OWN_ADDRESS = tronAddressFromPublicKey(new Uint8Array([4, ...Array<number>(64).fill(7)]));
const ownWallet = {
  ...wallet,
  id: 'wal_own',
  accountId: 'acc_2',
  accountName: 'Merchant Bob',
  address: OWN_ADDRESS,
};
const transaction = {
  id: 'tx_1',
  walletId: 'wal_1',
  account: { id: 'acc_1', name: 'Treasury' },
  type: 'WITHDRAWAL',
  status: 'PENDING',
  chain: 'tron:nile',
  asset: 'TRX',
  amountAtomic: '8900000',
  onChainDetails: null,
  createdAt: NOW,
  updatedAt: NOW,
};

let server: TestServer;
let postReply: () => Reply | Promise<Reply>;
let operationReply: () => Reply;
let activeWallets: unknown[];

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/api/v1/wallets', (request) => {
    if (request.path.includes('status=ACTIVE'))
      return { body: { items: activeWallets, nextCursor: null } };
    if (request.path.includes(`addressContains=${OWN_ADDRESS}`)) {
      return { body: { items: [ownWallet], nextCursor: null } };
    }
    return { body: { items: [], nextCursor: null } };
  });
  server.route('GET', '/bff/api/v1/wallets/wal_1/balances', () => ({
    body: {
      items: [
        {
          asset: 'TRX',
          chain: 'tron:nile',
          postedBalance: '10000000',
          availableBalance: '10000000',
          reservedBalance: '0',
        },
      ],
    },
  }));
  server.route('GET', '/bff/api/v1/mpc/status', () => ({
    body: {
      orgId: 'org_test',
      keyId: 'key_1',
      keyStatus: 'ACTIVE',
      coSigner: { status: 'ONLINE', lastSeenAt: NOW },
      chains: [{ chain: 'tron:nile', ready: true, reason: null }],
    },
  }));
  server.route('GET', '/bff/api/v1/assets', () => ({
    body: {
      items: [
        {
          asset: 'TRX',
          name: 'Tron',
          decimals: 6,
          chains: [{ chain: 'tron:nile', enabled: true, contractAddress: null }],
        },
      ],
    },
  }));
  server.route('POST', '/bff/api/v1/transactions', () => postReply());
  server.route('GET', '/bff/operations/*', () => operationReply());
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  activeWallets = [wallet];
});

const posts = () =>
  server.requests.filter((r) => r.method === 'POST' && r.path === '/bff/api/v1/transactions');

async function fillAndReview() {
  const user = userEvent.setup();
  const view = renderWithApp(<NewWithdrawalPage />, {
    path: '/transactions/new?walletId=wal_1',
    session: sessionFor('treasury'),
  });
  await screen.findByText('Available');
  await screen.findByTitle('10000000 atomic units');
  fireEvent.change(screen.getByLabelText('Destination address'), {
    target: { value: DESTINATION },
  });
  await user.click(screen.getByRole('button', { name: /Use the maximum amount/ }));
  expect(screen.getByLabelText('Amount (TRX)')).toHaveValue('8.9');
  await user.click(screen.getByRole('button', { name: 'Review withdrawal' }));
  await screen.findByRole('heading', { name: 'Review the withdrawal' });
  return { user, ...view };
}

describe('NewWithdrawalPage', () => {
  it('without an ACTIVE wallet, says so and links to creating one', async () => {
    activeWallets = [];
    renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('treasury'),
    });
    const note = await screen.findByText(/There is no ACTIVE wallet to send from yet/);
    expect(note).toHaveRole('note');
    expect(screen.getByRole('link', { name: 'Create a wallet' })).toHaveAttribute(
      'href',
      '/wallets',
    );
    expect(screen.getByRole('button', { name: 'Review withdrawal' })).toBeDisabled();
  });

  it('reviews atomic amount, fee and total, and a double click creates one withdrawal', async () => {
    postReply = () =>
      new Promise((resolve) =>
        setTimeout(() => {
          resolve({ status: 201, body: transaction });
        }, 150),
      );
    const { router } = await fillAndReview();
    expect(screen.getByText('8900000')).toBeInTheDocument();
    expect(screen.getByText('External withdrawal')).toBeInTheDocument();
    expect(screen.getByTitle('1100000 atomic units')).toHaveTextContent('1.1TRX');
    expect(screen.getByTitle('10000000 atomic units')).toHaveTextContent('10TRX');

    const send = screen.getByRole('button', { name: 'Send withdrawal' });
    fireEvent.click(send);
    fireEvent.click(send);
    fireEvent.click(send);
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/transactions/tx_1');
    });
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.body).toEqual({
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amountAtomic: '8900000',
    });
    expect(sessionStorage.length).toBe(0);
  });

  it('an unknown outcome shows "checking" and retries with the same operation id and body', async () => {
    let attempt = 0;
    postReply = () => {
      attempt += 1;
      return attempt === 1
        ? envelope('UPSTREAM_UNAVAILABLE', 503, 'req-unknown', [
            { outcome: 'unknown', operationId: 'x' },
          ])
        : { status: 201, body: transaction };
    };
    operationReply = () => ({ body: { state: 'unknown' } });
    const { user, router } = await fillAndReview();
    await user.click(screen.getByRole('button', { name: 'Send withdrawal' }));
    expect(
      await screen.findByRole('heading', { name: 'Checking whether it was created' }),
    ).toBeInTheDocument();
    // Still pending in sessionStorage: a reload would resume it, not start a second one.
    expect(sessionStorage.length).toBe(1);
    await user.click(screen.getByRole('button', { name: 'Retry safely (same operation id)' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/transactions/tx_1');
    });
    const [first, second] = posts();
    expect(second!.headers['x-operation-id']).toBe(first!.headers['x-operation-id']);
    expect(second!.body).toEqual(first!.body);
  });

  it('WITHDRAWALS_BLOCKED says not to retry and offers no retry', async () => {
    postReply = () => envelope('WITHDRAWALS_BLOCKED', 403, 'req-blocked');
    const { user } = await fillAndReview();
    await user.click(screen.getByRole('button', { name: 'Send withdrawal' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Do not retry');
    expect(screen.getByRole('button', { name: 'Start over' })).toBeInTheDocument();
    expect(sessionStorage.length).toBe(0);
  });

  it('after a reload, resumes the pending withdrawal and finds it created', async () => {
    savePendingWithdrawal('op-from-before-reload', {
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amountAtomic: '8900000',
    });
    operationReply = () => ({
      body: {
        operationId: 'op-from-before-reload',
        state: 'succeeded',
        status: 201,
        response: transaction,
      },
    });
    const { router } = renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('treasury'),
    });
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/transactions/tx_1');
    });
    expect(posts()).toHaveLength(0);
    expect(sessionStorage.length).toBe(0);
  });

  it('after a reload, a request the BFF never received is sent under the saved operation id', async () => {
    savePendingWithdrawal('op-never-received', {
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amountAtomic: '8900000',
    });
    postReply = () => ({ status: 201, body: transaction });
    operationReply = () => envelope('RESOURCE_NOT_FOUND', 404, 'req-no-op');
    const user = userEvent.setup();
    const { router } = renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('treasury'),
    });
    await user.click(
      await screen.findByRole('button', { name: 'Send it now (same operation id)' }),
    );
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/transactions/tx_1');
    });
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.headers['x-operation-id']).toBe('op-never-received');
    expect(posts()[0]!.body).toMatchObject({ amountAtomic: '8900000', toAddress: DESTINATION });
  });

  it('recognises an address of our own wallets as an internal transfer', async () => {
    const user = userEvent.setup();
    renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new?walletId=wal_1',
      session: sessionFor('treasury'),
    });
    await screen.findByTitle('10000000 atomic units');
    fireEvent.change(screen.getByLabelText('Destination address'), {
      target: { value: OWN_ADDRESS },
    });
    expect(await screen.findByText(/Internal transfer to account/)).toHaveTextContent(
      'Merchant Bob',
    );
    await user.type(screen.getByLabelText('Amount (TRX)'), '1');
    await user.click(screen.getByRole('button', { name: 'Review withdrawal' }));
    expect(
      await screen.findByText('Internal transfer to account Merchant Bob'),
    ).toBeInTheDocument();
  });

  it('is not offered to support operators', () => {
    renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('support'),
    });
    expect(
      screen.getByText('Only treasury or admin operators can send withdrawals.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Review withdrawal' })).not.toBeInTheDocument();
  });
});
