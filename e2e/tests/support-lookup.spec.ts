import type { Locator } from '@playwright/test';
import {
  BffSession,
  createFundedWallet,
  ensureReady,
  expect,
  expectAccessible,
  EXTERNAL_ADDRESS,
  saveScreenshot,
  signIn,
  test,
} from '../fixtures';
import { allowAllWithdrawals } from '../policy';

type Transaction = { id: string; correlationId: string; clientReference: string };

/** `element` ends inside `region`'s visible box: not hidden behind its sideways scroll. */
async function expectInView(region: Locator, element: Locator): Promise<void> {
  const regionBox = await region.boundingBox();
  const elementBox = await element.boundingBox();
  expect(regionBox).not.toBeNull();
  expect(elementBox).not.toBeNull();
  if (regionBox && elementBox) {
    expect(elementBox.x + elementBox.width).toBeLessThanOrEqual(regionBox.x + regionBox.width);
  }
}

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
  await allowAllWithdrawals(request);
});

test('support finds a withdrawal by its correlationId and by a requestId', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 20);
  const treasury = await BffSession.signIn(request, 'treasury');
  const response = await request.post('/bff/api/v1/transactions', {
    data: {
      walletId: wallet.walletId,
      asset: 'TRX',
      toAddress: EXTERNAL_ADDRESS,
      amountAtomic: '2000000',
    },
    headers: treasury.mutationHeaders(`e2e-support-${wallet.walletId}`),
  });
  expect(response.status()).toBe(201);
  const requestId = response.headers()['x-request-id'] ?? '';
  expect(requestId).not.toBe('');
  const transaction = (await response.json()) as Transaction;

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'support');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Support' })
    .click();
  const search = page.getByRole('search', { name: 'Support look-up' });

  await search.getByLabel('Look up').fill(transaction.correlationId);
  await search.getByRole('button', { name: 'Search' }).click();
  const matching = page.getByRole('table', { name: 'Matching transactions' });
  await expect(matching).toContainText(transaction.id.slice(-12));
  await expect(page.getByRole('table', { name: 'Events in time order' })).toContainText(
    'transaction.created',
  );
  await expect(page.getByRole('table', { name: 'Upstream calls' })).toContainText(
    '/api/v1/transactions',
  );
  // At 1440 px the id support looks a call up by is in view, not behind a sideways scroll.
  const calls = page.getByRole('region', { name: 'Upstream calls (scrollable)' });
  await expectInView(calls, calls.getByRole('button', { name: 'Copy correlation id' }).first());
  // The journaled withdrawal's row: its last column (the upstream request id) is in view too.
  const operations = page.getByRole('region', { name: 'Journaled operations (scrollable)' });
  await expect(operations).toContainText('transactions.create');
  await expectInView(
    operations,
    operations.getByRole('columnheader', { name: 'Upstream request id' }),
  );
  await expectAccessible(page);
  await saveScreenshot(page, 'support-1-by-correlation-id');

  await search.getByLabel('Look up').fill(requestId);
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(requestId)}`));
  await expect(page.getByRole('table', { name: 'Upstream calls' })).toContainText('201');
  await expect(page.getByRole('table', { name: 'Matching transactions' })).toContainText(
    transaction.id.slice(-12),
  );
  await saveScreenshot(page, 'support-2-by-request-id');
});
