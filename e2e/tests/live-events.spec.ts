import {
  BffSession,
  createFundedWallet,
  ensureReady,
  expect,
  expectAccessible,
  saveScreenshot,
  setFaults,
  signIn,
  test,
} from '../fixtures';

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
});

test.afterEach(async ({ request }) => {
  await setFaults(request, { dropSocketEveryMs: null, duplicateEventRate: null });
});

const DEPOSIT_SEQUENCE = [
  'deposit.observed',
  'transaction.created',
  'deposit.confirmed',
  'transaction.confirmed',
  'deposit.credited',
];

test('a simulated deposit appears live, observed through credited, and the balance follows', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 1);
  await signIn(page, 'admin');
  await page.goto(`/wallets/${wallet.walletId}`);
  const deposit = page.getByRole('form', { name: 'Simulate a deposit' });
  await deposit.getByLabel('Deposit asset').selectOption('TRX');
  await deposit.getByLabel('Deposit amount').fill('250.75');
  await expectAccessible(page);
  await deposit.getByRole('button').click();
  // The wallet page refreshes itself from the stream: 1 + 250.75 TRX.
  await expect(page.getByRole('main')).toContainText('251.75', { timeout: 30_000 });
  await saveScreenshot(page, 'deposit-1-wallet-credited');

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Events' })
    .click();
  await page.getByLabel('Search events').fill('250750000');
  const feed = page.getByRole('list', { name: 'Events' });
  for (const type of DEPOSIT_SEQUENCE) {
    await expect(feed.getByText(type, { exact: true })).toHaveCount(1);
  }
  await expectAccessible(page);
  await saveScreenshot(page, 'deposit-2-events');
});

test('the live feed survives dropped sockets and duplicates with no gap or duplicate', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 1);
  await signIn(page, 'support');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Events' })
    .click();
  await expect(page.getByRole('status', { name: 'Live updates: Live' })).toBeVisible();

  // The upstream socket now drops every 700 ms and redelivers half the events.
  await setFaults(request, { dropSocketEveryMs: 700, duplicateEventRate: 0.5 });
  const admin = await BffSession.signIn(request, 'admin');
  // Atomic amounts (as sent) and how the feed shows them (6 decimals of TRX from the catalog).
  const amounts = ['3000001', '3000002', '3000003'];
  const shown = (atomic: string) => `${atomic.slice(0, 1)}.${atomic.slice(1)} TRX`;
  for (const amountAtomic of amounts) {
    await admin.post('/bff/sandbox/deposits', {
      walletId: wallet.walletId,
      asset: 'TRX',
      amountAtomic,
    });
  }
  const feed = page.getByRole('list', { name: 'Events' });
  for (const amountAtomic of amounts) {
    // One deposit at a time, so every row of it fits the virtualized list.
    await page.getByLabel('Search events').fill(`"amountAtomic":"${amountAtomic}"`);
    const rows = feed.getByRole('listitem').filter({ hasText: shown(amountAtomic) });
    // Every milestone of every deposit exactly once, although sockets dropped and events
    // were redelivered; progress updates (transaction.updated) may come in between.
    for (const type of DEPOSIT_SEQUENCE) {
      await expect(rows.filter({ hasText: type })).toHaveCount(1, { timeout: 45_000 });
    }
    const texts = await rows.allInnerTexts();
    expect(new Set(texts).size).toBe(texts.length);
  }
  await saveScreenshot(page, 'live-feed-after-drops');
});
