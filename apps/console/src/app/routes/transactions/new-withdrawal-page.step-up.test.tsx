import { startAuthentication } from '@simplewebauthn/browser';
import { describeErrorCode } from '@settlement/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, sessionFor } from '../../../test/render';
import { startApiTestServer } from '../../../test/test-server';
import type { Reply, TestServer } from '../../../test/test-server';
import { NewWithdrawalPage } from './new-withdrawal-page';
import { routeWithdrawalBasics, walletOne } from './withdrawal-page-routes';

// The browser's passkey prompt: the test decides whether the operator confirms or cancels.
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: vi.fn() }));
const passkeyPrompt = vi.mocked(startAuthentication);

const DESTINATION = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const NOW = '2026-01-01T00:00:00Z';
const wallet = walletOne(NOW);
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
/** What an assertion of @simplewebauthn/browser looks like (the BFF verifies it, not us). */
const assertion = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key' as const,
  response: { clientDataJSON: 'cd', authenticatorData: 'ad', signature: 'sig' },
  clientExtensionResults: {},
};

/** The BFF's answer to a sensitive action without a fresh step-up. */
const stepUpRequired = (): Reply => ({
  status: 401,
  body: {
    code: 'STEP_UP_REQUIRED',
    message: describeErrorCode('STEP_UP_REQUIRED'),
    details: [{ stepUp: '/bff/auth/step-up/options' }],
    requestId: 'req-step-up',
    retryable: false,
  },
});

let server: TestServer;
/** Like the BFF: sensitive actions are refused until a step-up was verified. */
let isStepUpFresh: boolean;
const sensitive = (reply: Reply) => () => (isStepUpFresh ? reply : stepUpRequired());
let postReply: () => Reply;

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/api/v1/wallets', () => ({
    body: { items: [wallet], nextCursor: null },
  }));
  routeWithdrawalBasics(server, NOW);
  server.route('POST', '/bff/api/v1/transactions', () => postReply());
  server.route('POST', '/bff/auth/step-up/options', () => ({
    body: {
      challenge: 'Y2hhbGxlbmdl',
      rpId: 'localhost',
      allowCredentials: [{ id: 'cred-1', type: 'public-key' }],
      userVerification: 'required',
      timeout: 120000,
    },
  }));
  server.route('POST', '/bff/auth/step-up/verify', () => {
    isStepUpFresh = true;
    return { body: { freshUntil: '2026-01-01T00:05:00Z' } };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  isStepUpFresh = false;
  postReply = sensitive({ status: 201, body: transaction });
  passkeyPrompt.mockReset();
  sessionStorage.clear();
});

const posts = () =>
  server.requests.filter((r) => r.method === 'POST' && r.path === '/bff/api/v1/transactions');
const stepUpCalls = () => server.requests.filter((r) => r.path.startsWith('/bff/auth/step-up/'));

/** The withdrawal form filled in and reviewed: the state a step-up must not lose. */
async function reviewWithdrawal() {
  const user = userEvent.setup();
  const rendered = renderWithApp(<NewWithdrawalPage />, {
    path: '/transactions/new?walletId=wal_1',
    session: sessionFor('treasury'),
  });
  await screen.findByTitle('10000000 atomic units');
  fireEvent.change(screen.getByLabelText('Destination address'), {
    target: { value: DESTINATION },
  });
  fireEvent.change(screen.getByLabelText('Amount (TRX)'), { target: { value: '8.9' } });
  await user.type(screen.getByLabelText(/Client reference/), 'invoice-77');
  await screen.findByText(/Not one of your organization's wallets/);
  await user.click(screen.getByRole('button', { name: 'Review withdrawal' }));
  await screen.findByRole('heading', { name: 'Review the withdrawal' });
  return { user, ...rendered };
}

describe('a withdrawal that needs a step-up (the passkey asked for in place)', () => {
  it('prompts once, sends the same withdrawal again under the same operation id, and goes on', async () => {
    passkeyPrompt.mockResolvedValue(assertion);
    const { user, router } = await reviewWithdrawal();

    await user.click(screen.getByRole('button', { name: 'Send withdrawal' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/transactions/tx_1');
    });

    expect(passkeyPrompt).toHaveBeenCalledTimes(1);
    // The options the BFF issued are what the browser is asked to answer.
    expect(passkeyPrompt.mock.calls[0]?.[0].optionsJSON).toMatchObject({
      challenge: 'Y2hhbGxlbmdl',
      userVerification: 'required',
    });
    expect(stepUpCalls().map((r) => r.path)).toEqual([
      '/bff/auth/step-up/options',
      '/bff/auth/step-up/verify',
    ]);
    expect(stepUpCalls()[1]?.body).toEqual({ credential: assertion });
    expect(stepUpCalls()[1]?.headers['x-csrf-token']).toBe('csrf-test-token');
    const [first, second] = posts();
    expect(posts()).toHaveLength(2);
    expect(second?.headers['x-operation-id']).toBe(first?.headers['x-operation-id']);
    // The form's state went out unchanged, the second time too.
    expect(second?.body).toEqual(first?.body);
    expect(second?.body).toEqual({
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: DESTINATION,
      amountAtomic: '8900000',
      clientReference: 'invoice-77',
    });
  });

  it('a cancelled prompt sends nothing more, keeps the reviewed withdrawal, says why, and a retry goes through', async () => {
    passkeyPrompt.mockRejectedValueOnce(
      new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'),
    );
    const { user, router } = await reviewWithdrawal();

    await user.click(screen.getByRole('button', { name: 'Send withdrawal' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Confirm it is you with your passkey to continue.');
    expect(alert).toHaveTextContent('Nothing was sent');
    // No "edit the withdrawal": the same request, confirmed, will be accepted.
    expect(alert).not.toHaveTextContent('refused the same way');
    expect(posts()).toHaveLength(1);
    expect(stepUpCalls().map((r) => r.path)).toEqual(['/bff/auth/step-up/options']);
    // Still the review of the same withdrawal, on the same page.
    expect(router.state.location.pathname).toBe('/transactions/new');
    expect(screen.getByRole('heading', { name: 'Review the withdrawal' })).toBeInTheDocument();
    expect(screen.getByText('8900000')).toBeInTheDocument();
    expect(screen.getByText(DESTINATION)).toBeInTheDocument();
    expect(screen.getByText('invoice-77')).toBeInTheDocument();

    passkeyPrompt.mockResolvedValueOnce(assertion);
    await user.click(screen.getByRole('button', { name: /same operation id/ }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/transactions/tx_1');
    });
    // The retry is refused once more, confirmed this time, and sent again: one id throughout.
    expect(passkeyPrompt).toHaveBeenCalledTimes(2);
    expect(posts()).toHaveLength(3);
    for (const post of posts()) {
      expect(post.headers['x-operation-id']).toBe(posts()[0]?.headers['x-operation-id']);
      expect(post.body).toEqual(posts()[0]?.body);
    }
  });
});
