import type { Page } from '@playwright/test';
import {
  availableAtomic,
  BffSession,
  createFundedWallet,
  ensureReady,
  expect,
  expectAccessible,
  saveScreenshot,
  setFaults,
  signIn,
  test,
  fillWithdrawalForm,
} from '../fixtures';
import { allowAllWithdrawals } from '../policy';

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
  await allowAllWithdrawals(request);
});

test.afterEach(async ({ request }) => {
  await setFaults(request, { nextTransactionOutcome: null });
});

/** Fills the withdrawal form and opens the review step. */
async function reviewWithdrawal(
  page: Page,
  walletId: string,
  amount: string,
  clientReference?: string,
): Promise<void> {
  const form = await fillWithdrawalForm(page, {
    walletId,
    amount,
    ...(clientReference ? { clientReference } : {}),
  });
  await form.getByRole('button', { name: 'Review withdrawal' }).click();
  await expect(page.getByRole('button', { name: 'Send withdrawal' })).toBeVisible();
}

test('treasury sends a withdrawal and watches it reach CONFIRMED while balances update', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 100);
  await signIn(page, 'treasury');
  await reviewWithdrawal(page, wallet.walletId, '12.5');
  await expect(page.getByText('12500000').first()).toBeVisible(); // atomic amount on review
  await expectAccessible(page);
  await saveScreenshot(page, 'withdrawal-1-review');

  await page.getByRole('button', { name: 'Send withdrawal' }).click();
  await expect(page).toHaveURL(/\/transactions\/[^/]+$/);
  // The toast library loads with the first toast (lib/toasts): the answer still shows one.
  const toasts = page.getByRole('region', { name: /^Notifications/ });
  await expect(toasts).toContainText('Withdrawal accepted');
  const header = page.getByRole('main');
  await expect(header.getByText('PENDING').first()).toBeVisible();
  await saveScreenshot(page, 'withdrawal-2-pending');
  // No reload from here on: the live stream moves the page to the terminal state.
  await expect(header.getByText('CONFIRMED').first()).toBeVisible({ timeout: 45_000 });
  // The live event's own toast, through the same loader.
  await expect(toasts).toContainText('Transaction confirmed');
  await expect(page.getByRole('list', { name: 'Status timeline' })).toContainText(/19/);
  await expectAccessible(page);
  await saveScreenshot(page, 'withdrawal-3-confirmed');

  // 100 - 12.5 - 1.1 fee = 86.4 TRX available, reached by in-app navigation only.
  await page.getByRole('link', { name: wallet.accountName }).first().click();
  await expect(page.getByRole('main')).toContainText('86.4');
});

test('a forced FAILED withdrawal shows its failure and the restored balance', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 50);
  await setFaults(request, { nextTransactionOutcome: 'FAILED' });
  await signIn(page, 'treasury');
  await reviewWithdrawal(page, wallet.walletId, '20');
  await page.getByRole('button', { name: 'Send withdrawal' }).click();
  await expect(page.getByRole('main').getByText('FAILED').first()).toBeVisible({
    timeout: 45_000,
  });
  await saveScreenshot(page, 'withdrawal-4-failed');
  const treasury = await BffSession.signIn(request, 'treasury');
  expect(await availableAtomic(treasury, wallet.walletId)).toBe(50_000_000n);
});

test('double-clicking send creates exactly one transaction', async ({ page, request }) => {
  const wallet = await createFundedWallet(request, 30);
  const clientReference = `e2e-double-${Date.now()}`;
  await signIn(page, 'treasury');
  await reviewWithdrawal(page, wallet.walletId, '1', clientReference);
  await page.getByRole('button', { name: 'Send withdrawal' }).dblclick();
  await expect(page).toHaveURL(/\/transactions\/[^/]+$/);
  // A reload of the form with the same pending operation must not send again either.
  await page.goBack();
  const support = await BffSession.signIn(request, 'support');
  const byRef = `/bff/api/v1/transactions?clientReference=${clientReference}`;
  const byWallet = `/bff/api/v1/transactions?walletId=${wallet.walletId}&type=WITHDRAWAL`;
  // Wait for the outcome, not for "at least one seen": once the withdrawal is CONFIRMED the
  // clicks have long been answered, so a second transaction would be listed by now.
  await expect
    .poll(
      async () => {
        const list = await support.get<{ items: { status: string }[] }>(byRef);
        return list.items.map((tx) => tx.status);
      },
      { timeout: 45_000 },
    )
    .toContain('CONFIRMED');
  expect((await support.get<{ items: unknown[] }>(byRef)).items).toHaveLength(1);
  expect((await support.get<{ items: unknown[] }>(byWallet)).items).toHaveLength(1);
});
