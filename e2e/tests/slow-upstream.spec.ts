import {
  createFundedWallet,
  ensureReady,
  expect,
  expectAccessible,
  fillWithdrawalForm,
  saveScreenshot,
  setFaults,
  signIn,
  test,
} from '../fixtures';
import { allowAllWithdrawals } from '../policy';

/**
 * Every sandbox answer held back this long: past the console's 5 s "still waiting" line, within
 * the BFF's 10 s upstream timeout, so each read is slow but not failed.
 */
const LATENCY_MS = 8_000;

/** A wallet with one deposit: what both pages below read (filtered to it). */
let walletId = '';

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
  await allowAllWithdrawals(request);
  walletId = (await createFundedWallet(request, 17)).walletId;
});

test.afterEach(async ({ request }) => {
  await setFaults(request, { latencyMs: null });
});

test('a page the settlement service is slow to answer says it is waiting, then shows the data', async ({
  page,
  request,
}) => {
  await signIn(page, 'support');
  await setFaults(request, { latencyMs: LATENCY_MS });

  await page.goto(`/transactions?walletId=${walletId}`);
  const skeleton = page.getByRole('status', { name: 'Loading transactions' });
  const waiting = page.getByText('Still waiting for the settlement service…');
  await expect(skeleton).toBeVisible();
  await expect(waiting).toBeVisible({ timeout: LATENCY_MS });
  await expect(skeleton).toBeVisible();
  await expectAccessible(page);
  await saveScreenshot(page, 'slow-upstream-waiting');

  // The answer arrives: the line goes with the skeleton, and no error was shown meanwhile.
  const table = page.getByRole('table', { name: 'Transactions' });
  await expect(table.getByTitle('17000000 atomic units')).toBeVisible({ timeout: 30_000 });
  await expect(waiting).toBeHidden();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a read the settlement service never answers becomes an error once the BFF gives up, with "Try again"', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'support');
  // Longer than the BFF's three attempts of 10 s: every upstream call of the page hangs.
  await setFaults(request, { latencyMs: 60_000 });

  const startedAt = Date.now();
  await page.goto(`/transactions?walletId=${walletId}`);
  const failed = page
    .getByRole('alert')
    .filter({ hasText: 'A required upstream service is unavailable' })
    .first();
  await expect(failed).toBeVisible({ timeout: 60_000 });
  // The BFF's attempts take ~30 s; the console does not ask again after so slow a failure
  // (it did: three times as long, ~90 s, behind a bare skeleton).
  expect(Date.now() - startedAt).toBeLessThan(50_000);
  await saveScreenshot(page, 'slow-upstream-gave-up');

  await setFaults(request, { latencyMs: null });
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(
    page.getByRole('table', { name: 'Transactions' }).getByTitle('17000000 atomic units'),
  ).toBeVisible();
});

test('a withdrawal the service is slow to accept says it is sent at most once, then opens', async ({
  page,
  request,
}) => {
  await signIn(page, 'treasury');
  const form = await fillWithdrawalForm(page, { walletId, amount: '2.5' });
  await form.getByRole('button', { name: 'Review withdrawal' }).click();
  const send = page.getByRole('button', { name: 'Send withdrawal' });
  await expect(send).toBeVisible();
  await setFaults(request, { latencyMs: LATENCY_MS });

  await send.click();
  const waiting = page.getByText(
    /Still waiting for the settlement service\. This withdrawal is sent at most once/,
  );
  await expect(waiting).toBeVisible({ timeout: LATENCY_MS });
  await expect(page.getByRole('button', { name: 'Sending…' })).toBeDisabled();
  await saveScreenshot(page, 'slow-upstream-sending');

  await expect(page).toHaveURL(/\/transactions\/[^/?]+$/, { timeout: 30_000 });
  await setFaults(request, { latencyMs: null });
  await expect(page.getByRole('main').getByText('2.5').first()).toBeVisible();
});
