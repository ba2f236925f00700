import type { Page } from '@playwright/test';
import {
  BffSession,
  createFundedWallet,
  ensureReady,
  expect,
  EXTERNAL_ADDRESS,
  saveScreenshot,
  setFaults,
  signIn,
  test,
  fillWithdrawalForm,
} from '../fixtures';
import { allowAllWithdrawals } from '../policy';

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
  // This journey is about unknown outcomes, not approvals: sends go straight upstream.
  await allowAllWithdrawals(request);
});

test.afterEach(async ({ request }) => {
  await setFaults(request, { upstreamUnavailableRate: null });
});

/**
 * The "send a withdrawal" steps of this journey: fill the form, review, press Send. (One place
 * to change should sending ever need more steps, such as an approval.)
 */
async function sendWithdrawal(
  page: Page,
  walletId: string,
  amount: string,
  clientReference: string,
): Promise<void> {
  const form = await fillWithdrawalForm(page, { walletId, amount, clientReference });
  await expect(form.getByText(/Not one of your organization's wallets/)).toBeVisible();
  await form.getByRole('button', { name: 'Review withdrawal' }).click();
  await page.getByRole('button', { name: 'Send withdrawal' }).click();
}

type OperationView = { state: string; attempts: { upstreamRequestId: string | null }[] };

test('after a 503 storm, Abandon reconciles first, abandons, and the draft comes back unsent', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 20);
  const clientReference = `e2e-abandon-${Date.now()}`;
  await setFaults(request, { upstreamUnavailableRate: 1 });
  await signIn(page, 'treasury');
  await sendWithdrawal(page, wallet.walletId, '2', clientReference);

  const panel = page.getByRole('region', { name: 'Checking whether it was created' });
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByTitle('2000000 atomic units')).toContainText('2');
  await expect(panel).not.toContainText('atomic TRX');
  await expect(panel).not.toContainText('(unknown)');
  const calls = panel.getByRole('list', { name: 'Calls to the service' });
  await expect(calls.getByRole('listitem')).toHaveCount(3);
  await expect(calls).toContainText('Send attempt 3: HTTP 503');
  await saveScreenshot(page, 'withdrawal-abandon-1-unknown');

  // Every send still fails; Abandon's reconciliation is a read, which the storm lets through.
  await panel.getByRole('button', { name: 'Abandon' }).click();
  await expect(
    page.getByRole('heading', { name: 'Abandoned: the withdrawal was not created' }),
  ).toBeVisible();
  await saveScreenshot(page, 'withdrawal-abandon-2-abandoned');

  const support = await BffSession.signIn(request, 'support');
  const byReference = await support.get<{ items: unknown[] }>(
    `/bff/api/v1/transactions?clientReference=${clientReference}`,
  );
  expect(byReference.items).toEqual([]);
  const search = await support.get<{
    operations: { state: string; operationId: string }[];
    actions: { outcome: string; operator: string }[];
  }>(`/bff/support/search?q=${clientReference}`);
  expect(search.operations.map((o) => o.state)).toEqual(['abandoned']);
  const operationId = search.operations[0]?.operationId ?? '';
  const operation = await support.get<OperationView>(`/bff/operations/${operationId}`);
  expect(operation.state).toBe('abandoned');
  expect(operation.attempts.filter((a) => a.upstreamRequestId !== null).length).toBeGreaterThan(3);

  await page.getByRole('button', { name: 'Start a new withdrawal' }).click();
  await expect(page.getByRole('note', { name: 'Unsent draft' })).toContainText(
    'This withdrawal was NOT sent.',
  );
  await expect(page.getByLabel('Destination address')).toHaveValue(EXTERNAL_ADDRESS);
  await expect(page.getByLabel('Client reference (optional)')).toHaveValue(clientReference);
});
