import type { APIRequestContext, Page } from '@playwright/test';
import {
  availableAtomic,
  BffSession,
  createFundedWallet,
  ensureReady,
  expect,
  EXTERNAL_ADDRESS,
  saveScreenshot,
  setFaults,
  signIn,
  test,
} from '../fixtures';

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
});

test.afterEach(async ({ request }) => {
  await setFaults(request, { nextTransactionOutcome: null });
});

type Created = { id?: string; withdrawalRequest?: { id: string } };
type WithdrawalRequest = { status: string; transactionId?: string | null };

/**
 * Sends a TRX withdrawal to an outside address as the treasury operator and returns its
 * transaction id. The one place that knows how a withdrawal gets sent (the form has its own
 * journey): when the policy holds it for approval, an admin approves it and the request names
 * the transaction once submitted.
 */
async function sendWithdrawal(
  request: APIRequestContext,
  walletId: string,
  amountAtomic: string,
): Promise<string> {
  const treasury = await BffSession.signIn(request, 'treasury');
  const created = await treasury.post<Created>(
    '/bff/api/v1/transactions',
    { walletId, asset: 'TRX', toAddress: EXTERNAL_ADDRESS, amountAtomic },
    `e2e-failed-truth-${walletId}`,
  );
  if (created.id) return created.id;
  const requestId = created.withdrawalRequest?.id;
  if (!requestId)
    throw new Error(`neither a transaction nor a request: ${JSON.stringify(created)}`);
  const admin = await BffSession.signIn(request, 'admin');
  await admin.post(`/bff/withdrawal-requests/${requestId}/approve`, {}, `e2e-approve-${requestId}`);
  let transactionId = '';
  await expect
    .poll(async () => {
      const held = await admin.get<WithdrawalRequest>(`/bff/withdrawal-requests/${requestId}`);
      transactionId = held.transactionId ?? '';
      return transactionId !== '';
    })
    .toBe(true);
  return transactionId;
}

/** A titled panel of the detail page (a section headed by `title`). */
function panel(page: Page, title: string) {
  return page
    .getByRole('main')
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

test('a withdrawal that failed before broadcast says what really happened to the money', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 50);
  await setFaults(request, { nextTransactionOutcome: 'FAILED' });
  await signIn(page, 'treasury');
  const transactionId = await sendWithdrawal(request, wallet.walletId, '20000000');
  await page.goto(`/transactions/${transactionId}`);

  // No reload: the live stream brings the page to FAILED.
  const main = page.getByRole('main');
  await expect(main.getByText('FAILED', { exact: true }).first()).toBeVisible({ timeout: 45_000 });
  await expect(main.getByText('Nile testnet').first()).toBeVisible();

  // No fee was consumed: the estimate is labelled as such and there is no actual fee.
  const fee = panel(page, 'Network fee');
  await expect(fee).toContainText('(estimate)');
  await expect(fee).toContainText('None: never broadcast, no fee was charged');
  await expect(fee).not.toContainText('charged on chain');

  // What came back, from the balance effects: the 20 TRX and the 1.1 TRX fee reserve.
  const funds = panel(page, 'Funds');
  await expect(funds).toContainText('Not debited');
  await expect(funds).toContainText('No network fee was spent');
  await expect(funds.getByRole('listitem')).toHaveText(['21.1TRX']);

  // The timeline never claims a broadcast that did not happen.
  const timeline = page.getByRole('list', { name: 'Status timeline' });
  const broadcast = timeline.getByRole('listitem').filter({ hasText: /^Broadcast/ });
  await expect(broadcast).toContainText('did not happen');
  await expect(broadcast).not.toContainText('(done)');
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Signed by MPC' })).toContainText(
    '(done)',
  );
  await saveScreenshot(page, 'failed-withdrawal-truth-1-detail');

  // The list row reads as not debited, never as a -20 TRX debit.
  await page.goto(`/transactions?walletId=${wallet.walletId}`);
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: `Transaction ${transactionId}` }) });
  await expect(row).toContainText('Nile testnet');
  // The Amount column (the fifth): the row's other cells may hold a "-" (a client reference).
  const amount = row.getByRole('cell').nth(4);
  await expect(amount).toContainText('not debited');
  await expect(amount).toContainText('20');
  await expect(amount).not.toContainText('-');
  await saveScreenshot(page, 'failed-withdrawal-truth-2-list');

  const treasury = await BffSession.signIn(request, 'treasury');
  expect(await availableAtomic(treasury, wallet.walletId)).toBe(50_000_000n);
});
