import { tronAddressFromPublicKey } from '@settlement/protocol';
import type { OperationView } from '@settlement/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { operationViewFixture } from '../../../features/transactions/bff-fixtures';
import {
  loadPendingWithdrawal,
  savePendingWithdrawal,
} from '../../../features/transactions/model/pending-withdrawal';
import { saveDraft } from '../../../features/transactions/model/withdrawal-draft';
import { SLOW_ANSWER_MS } from '../../../lib/use-is-slow';
import { renderWithApp, sessionFor } from '../../../test/render';
import { envelope, heldReply, startApiTestServer } from '../../../test/test-server';
import type { Reply, TestServer } from '../../../test/test-server';
import { NewWithdrawalPage } from './new-withdrawal-page';
import { routeWithdrawalBasics, walletPage, walletOne } from './withdrawal-page-routes';

const DESTINATION = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const NOW = '2026-01-01T00:00:00Z';
const wallet = walletOne(NOW);
// Another wallet of the organization, with a valid address of its own.
const OWN_ADDRESS = tronAddressFromPublicKey(new Uint8Array([4, ...Array<number>(64).fill(7)]));
const ownWallet = {
  ...wallet,
  id: 'wal_own',
  accountId: 'acc_2',
  accountName: 'Merchant Bob',
  address: OWN_ADDRESS,
};
// A wallet of the organization on ANOTHER chain.
const MAINNET_ADDRESS = tronAddressFromPublicKey(new Uint8Array([4, ...Array<number>(64).fill(9)]));
const mainnetWallet = {
  ...wallet,
  id: 'wal_main',
  chain: 'tron:mainnet',
  accountId: 'acc_3',
  accountName: 'Mainnet Reserve',
  address: MAINNET_ADDRESS,
};

/** The BFF's operation view, parsed by the protocol's OperationViewSchema, with these fields. */
function view(fields: Partial<OperationView>): Reply {
  return { body: operationViewFixture(fields) };
}
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
let abandonReply: () => Reply;
let activeWallets: unknown[];
/** When set, the second page of ACTIVE wallets answers with this error. */
let secondPageError: Reply | null;

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/api/v1/wallets', (request) => {
    if (request.path.includes('status=ACTIVE')) {
      return walletPage(request, activeWallets, secondPageError);
    }
    if (request.path.includes(`addressContains=${OWN_ADDRESS}`)) {
      return { body: { items: [ownWallet], nextCursor: null } };
    }
    if (request.path.includes(`addressContains=${MAINNET_ADDRESS}`)) {
      return { body: { items: [mainnetWallet], nextCursor: null } };
    }
    if (request.path.includes(`addressContains=${wallet.address}`)) {
      return { body: { items: [wallet], nextCursor: null } };
    }
    return { body: { items: [], nextCursor: null } };
  });
  routeWithdrawalBasics(server, NOW);
  server.route('POST', '/bff/api/v1/transactions', () => postReply());
  server.route('GET', '/bff/operations/*', () => operationReply());
  server.route('POST', '/bff/operations/*', () => abandonReply());
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  activeWallets = [wallet];
  secondPageError = null;
  sessionStorage.clear();
});

const posts = () =>
  server.requests.filter((r) => r.method === 'POST' && r.path === '/bff/api/v1/transactions');

async function openForm() {
  const user = userEvent.setup();
  const rendered = renderWithApp(<NewWithdrawalPage />, {
    path: '/transactions/new?walletId=wal_1',
    session: sessionFor('treasury'),
  });
  await screen.findByText('Available');
  await screen.findByTitle('10000000 atomic units');
  return { user, ...rendered };
}

async function fillAndReview(destination = DESTINATION) {
  const opened = await openForm();
  const { user } = opened;
  fireEvent.change(screen.getByLabelText('Destination address'), {
    target: { value: destination },
  });
  await user.click(screen.getByRole('button', { name: /Use the maximum amount/ }));
  expect(screen.getByLabelText('Amount (TRX)')).toHaveValue('8.9');
  // The review waits until the organization's wallets have been searched for the address.
  await screen.findByText(/Not one of your organization's wallets/);
  await user.click(screen.getByRole('button', { name: 'Review withdrawal' }));
  await screen.findByRole('heading', { name: 'Review the withdrawal' });
  return opened;
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

  it('lists ACTIVE wallets past the first page, so any of them can be the source', async () => {
    const others = Array.from({ length: 260 }, (_, i) => ({ ...wallet, id: `wal_other_${i}` }));
    activeWallets = [...others, wallet];
    await openForm();
    const picker = screen.getByLabelText('From wallet');
    expect(picker).toHaveValue('wal_1');
    expect(picker.querySelectorAll('option')).toHaveLength(1 + 261);
    expect(screen.queryByText(/Only the first/)).not.toBeInTheDocument();
  });

  it('past a thousand ACTIVE wallets, lists the first thousand and says the list is partial', async () => {
    activeWallets = Array.from({ length: 1001 }, (_, i) => ({ ...wallet, id: `wal_${i + 1}` }));
    await openForm();
    expect(screen.getByLabelText('From wallet')).toHaveAccessibleDescription(
      'Only the first 1,000 ACTIVE wallets are listed.',
    );
    const reads = server.requests.filter((r) => r.path.includes('status=ACTIVE'));
    expect(reads.map((r) => new URL(r.path, 'http://test').searchParams.get('limit'))).toEqual(
      Array<string>(5).fill('200'),
    );
  });

  it('says the wallets could not be read, not that there are none, and reads them again on retry', async () => {
    activeWallets = Array.from({ length: 201 }, (_, i) => ({ ...wallet, id: `wal_${i + 1}` }));
    secondPageError = envelope('UPSTREAM_UNAVAILABLE', 503, 'req-wallets');
    renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('treasury'),
    });
    expect(await screen.findByText('The wallets could not be read')).toBeInTheDocument();
    expect(screen.queryByText(/There is no ACTIVE wallet/)).not.toBeInTheDocument();
    secondPageError = null;
    await userEvent.setup().click(screen.getByRole('button', { name: /Retry|Try again/ }));
    expect(await screen.findByLabelText('From wallet')).toBeInTheDocument();
    expect(screen.getByLabelText('From wallet').querySelectorAll('option')).toHaveLength(1 + 201);
  });

  it('reviews atomic amount, fee and total, and a double click creates one withdrawal', async () => {
    // The answer waits until the test releases it, so every click lands while it is in flight.
    const { handler, release: respond } = heldReply({ status: 201, body: transaction });
    postReply = handler;
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
      expect(posts()).toHaveLength(1);
    });
    respond();
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/transactions/tx_1');
    });
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.body).toEqual({
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amountAtomic: '8900000',
      clientReference: `wd-${String(posts()[0]!.headers['x-operation-id'])}`,
    });
    // Neither the pending record nor the draft outlives the created withdrawal.
    expect(sessionStorage.length).toBe(0);
  });

  it('a send the service is slow to answer says it goes at most once, until the answer comes', async () => {
    const { handler, release: respond } = heldReply({ status: 201, body: transaction });
    postReply = handler;
    const { router } = await fillAndReview();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Send withdrawal' }));
      await waitFor(() => {
        expect(posts()).toHaveLength(1);
      });
      const slow =
        /Still waiting for the settlement service\. This withdrawal is sent at most once/;
      expect(screen.queryByText(slow)).not.toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(SLOW_ANSWER_MS);
      expect(await screen.findByText(slow)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Sending…' })).toBeDisabled();
      expect(screen.getByText('Sending it now, under the operation id below.')).toBeInTheDocument();
      expect(screen.queryByText(/Nothing has been sent yet/)).not.toBeInTheDocument();
      respond();
      await waitFor(() => {
        expect(router.state.location.pathname).toBe('/transactions/tx_1');
      });
      expect(posts()).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the review names the wallet money leaves, its exact address, and that the chain is a testnet', async () => {
    await fillAndReview();
    const review = screen.getByRole('heading', { name: 'Review the withdrawal' }).parentElement;
    if (!review) throw new Error('no review panel');
    const from = within(review).getByText('From').nextElementSibling;
    expect(from).toHaveTextContent('Treasury · Nile · AeBf');
    expect(from).toHaveTextContent(wallet.address);
    expect(within(review).getByText('Chain').nextElementSibling).toHaveTextContent(
      'tron:nileNile testnet',
    );
  });

  it('a blank client reference: the review shows the generated one, which is exactly what is sent', async () => {
    postReply = () => ({ status: 201, body: transaction });
    const { user } = await fillAndReview();
    const generated = screen.getByText(/^wd-[0-9a-f-]{36}$/);
    expect(screen.getByText('Generated by the console: you left it blank.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send withdrawal' }));
    await waitFor(() => {
      expect(posts()).toHaveLength(1);
    });
    expect(posts()[0]!.body).toMatchObject({ clientReference: generated.textContent });
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
    operationReply = () => view({ state: 'unknown' });
    const { user, router } = await fillAndReview();
    await user.click(screen.getByRole('button', { name: 'Send withdrawal' }));
    expect(
      await screen.findByRole('heading', { name: 'Checking whether it was created' }),
    ).toBeInTheDocument();
    // Still pending in sessionStorage: a reload would resume it, not start a second one.
    expect(loadPendingWithdrawal('treasury')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Retry safely (same operation id)' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/transactions/tx_1');
    });
    const [first, second] = posts();
    expect(second!.headers['x-operation-id']).toBe(first!.headers['x-operation-id']);
    expect(second!.body).toEqual(first!.body);
  });

  it('WITHDRAWALS_BLOCKED says not to retry and offers no Send beside it', async () => {
    postReply = () => envelope('WITHDRAWALS_BLOCKED', 403, 'req-blocked');
    const { user } = await fillAndReview();
    await user.click(screen.getByRole('button', { name: 'Send withdrawal' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Do not retry');
    expect(screen.queryByRole('button', { name: /Send withdrawal|Retry/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start over' })).toBeInTheDocument();
    expect(loadPendingWithdrawal('treasury')).toBeNull();
  });

  it("keeps the server's more specific message beside the console's advice", async () => {
    postReply = () => ({
      status: 422,
      body: {
        code: 'INVALID_ADDRESS',
        message: 'toAddress is the address of the source wallet.',
        details: [],
        requestId: 'req-self',
        retryable: false,
      },
    });
    const { user } = await fillAndReview();
    await user.click(screen.getByRole('button', { name: 'Send withdrawal' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('toAddress is the address of the source wallet.');
    expect(alert).toHaveTextContent('Check the destination address.');
    // The request must change: editing is the action, not sending it again.
    expect(screen.queryByRole('button', { name: 'Send withdrawal' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to edit' })).toBeEnabled();
  });

  it.each([
    ['a bad checksum', `${DESTINATION.slice(0, 33)}u`],
    ['a non-TRON address', 'XR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ['an 0x address', '0x52908400098527886E0F7030069857D2E4169EE7'],
  ])('%s never opens the review', async (_name, address) => {
    const { user } = await openForm();
    fireEvent.change(screen.getByLabelText('Destination address'), { target: { value: address } });
    await user.type(screen.getByLabelText('Amount (TRX)'), '1');
    await user.click(screen.getByRole('button', { name: 'Review withdrawal' }));
    expect(screen.getByLabelText('Destination address')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Review withdrawal' })).toBeDisabled();
    expect(screen.queryByRole('heading', { name: 'Review the withdrawal' })).toBeNull();
    expect(posts()).toHaveLength(0);
  });

  it('blocks a wallet of ours on another chain and explains where the funds would land', async () => {
    const { user } = await openForm();
    fireEvent.change(screen.getByLabelText('Destination address'), {
      target: { value: MAINNET_ADDRESS },
    });
    await user.type(screen.getByLabelText('Amount (TRX)'), '1');
    const alert = await screen.findByText(/Wrong network/);
    expect(alert).toHaveTextContent('the tron:mainnet wallet of account Mainnet Reserve');
    expect(alert).toHaveTextContent('The funds would land at this address on tron:nile');
    expect(alert).toHaveTextContent('would never see them');
    expect(screen.queryByText(/Internal transfer/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Review withdrawal' }));
    expect(screen.queryByRole('heading', { name: 'Review the withdrawal' })).toBeNull();
    expect(posts()).toHaveLength(0);
  });

  it('blocks the source wallet as its own destination', async () => {
    const { user } = await openForm();
    fireEvent.change(screen.getByLabelText('Destination address'), {
      target: { value: wallet.address },
    });
    await user.type(screen.getByLabelText('Amount (TRX)'), '1');
    expect(screen.getByText(/the address of the wallet you are sending from/)).toBeVisible();
    expect(screen.queryByText(/Internal transfer/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Review withdrawal' }));
    expect(screen.queryByRole('heading', { name: 'Review the withdrawal' })).toBeNull();
  });

  it('after a reload, resumes the pending withdrawal and finds it created', async () => {
    savePendingWithdrawal('treasury', 'op-from-before-reload', {
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amountAtomic: '8900000',
    });
    operationReply = () =>
      view({
        operationId: 'op-from-before-reload',
        state: 'succeeded',
        status: 201,
        response: transaction,
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
    savePendingWithdrawal('treasury', 'op-never-received', {
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

  it('the unknown-outcome panel formats the amount, lists each attempt with its request id, and never says "(unknown)"', async () => {
    savePendingWithdrawal('treasury', 'op-storm', {
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amountAtomic: '2000000',
      clientReference: 'ref-storm',
    });
    const attempt = (n: number) => ({
      operation: 'transactions.create',
      method: 'POST',
      attempt: n,
      status: 503,
      requestId: `bff-req-${String(n)}`,
      upstreamRequestId: `up-req-${String(n)}`,
      at: NOW,
      error: null,
    });
    operationReply = () =>
      view({ operationId: 'op-storm', attempts: [attempt(1), attempt(2), attempt(3)] });
    renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('treasury'),
    });
    const attempts = await screen.findByRole('list', { name: 'Calls to the service' });
    expect(attempts).toHaveTextContent('Send attempt 1: HTTP 503');
    for (const id of ['up-req-1', 'up-req-2', 'up-req-3']) {
      expect(screen.getByText(id)).toBeInTheDocument();
    }
    const panel = screen.getByRole('region', { name: 'Checking whether it was created' });
    expect(await screen.findByTitle('2000000 atomic units')).toHaveTextContent('2TRX');
    expect(panel).not.toHaveTextContent('atomic TRX');
    expect(panel).not.toHaveTextContent('(unknown)');
    expect(panel).toHaveTextContent('it is not yet known whether the withdrawal was created');
  });

  it('Abandon asks the BFF, which reconciles; abandoned, the form comes back with the draft', async () => {
    savePendingWithdrawal('treasury', 'op-give-up', {
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amountAtomic: '2000000',
      clientReference: 'ref-give-up',
    });
    saveDraft('treasury', {
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amount: '2',
      clientReference: 'ref-give-up',
      feeLimit: '',
    });
    operationReply = () => view({ operationId: 'op-give-up', state: 'unknown' });
    abandonReply = () => view({ operationId: 'op-give-up', state: 'abandoned' });
    const user = userEvent.setup();
    renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('treasury'),
    });
    await user.click(await screen.findByRole('button', { name: 'Abandon' }));
    expect(
      await screen.findByRole('heading', { name: 'Abandoned: the withdrawal was not created' }),
    ).toBeInTheDocument();
    const abandons = server.requests.filter((r) => r.method === 'POST' && r.path.includes('op-'));
    expect(abandons.map((r) => r.path)).toEqual(['/bff/operations/op-give-up/abandon']);
    expect(abandons[0]!.headers['x-csrf-token']).toBe('csrf-test-token');
    await user.click(screen.getByRole('button', { name: 'Start a new withdrawal' }));
    expect(await screen.findByLabelText('Destination address')).toHaveValue(DESTINATION);
    expect(loadPendingWithdrawal('treasury')).toBeNull();
    expect(posts()).toHaveLength(0);
  });

  it('Abandon of a withdrawal the service has shows it instead of abandoning it', async () => {
    savePendingWithdrawal('treasury', 'op-reached', {
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amountAtomic: '8900000',
    });
    operationReply = () => view({ operationId: 'op-reached', state: 'unknown' });
    abandonReply = () =>
      view({ operationId: 'op-reached', state: 'succeeded', status: 201, response: transaction });
    const user = userEvent.setup();
    const { router } = renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('treasury'),
    });
    await user.click(await screen.findByRole('button', { name: 'Abandon' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/transactions/tx_1');
    });
  });

  it('an unsent draft survives signing in again, for the same operator only, and says it was not sent', async () => {
    saveDraft('treasury', {
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amount: '3.5',
      clientReference: 'inv-9',
      feeLimit: '',
    });
    const other = renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('admin'),
    });
    await screen.findByLabelText('From wallet');
    expect(screen.queryByRole('note', { name: 'Unsent draft' })).toBeNull();
    other.unmount();

    renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('treasury'),
    });
    const note = await screen.findByRole('note', { name: 'Unsent draft' });
    expect(note).toHaveTextContent('This withdrawal was NOT sent.');
    expect(await screen.findByLabelText('Destination address')).toHaveValue(DESTINATION);
    expect(screen.getByLabelText('Amount (TRX)')).toHaveValue('3.5');
    expect(screen.getByLabelText('Client reference (optional)')).toHaveValue('inv-9');
    expect(screen.getByLabelText('From wallet')).toHaveValue('wal_1');
  });

  it('keeps the draft being edited for its operator, and Discard forgets it', async () => {
    const { user, unmount } = await openForm();
    await user.type(screen.getByLabelText('Amount (TRX)'), '4');
    unmount(); // signed out: the page goes away with nothing sent
    renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('treasury'),
    });
    await screen.findByRole('note', { name: 'Unsent draft' });
    expect(await screen.findByLabelText('Amount (TRX)')).toHaveValue('4');
    await user.click(screen.getByRole('button', { name: 'Discard draft' }));
    expect(screen.queryByRole('note', { name: 'Unsent draft' })).toBeNull();
    expect(sessionStorage.length).toBe(0);
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
