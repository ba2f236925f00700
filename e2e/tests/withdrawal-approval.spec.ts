import type { Browser, Page } from '@playwright/test';
import {
  BffSession,
  createFundedWallet,
  demoCredentials,
  ensureReady,
  expect,
  expectAccessible,
  EXTERNAL_ADDRESS,
  fillWithdrawalForm,
  saveScreenshot,
  setFaults,
  signIn,
  test,
} from '../fixtures';
import { installPolicy, requestApproval } from '../policy';

/** The demo default policy: any other destination needs one approval from an admin. */
test.beforeAll(async ({ request }) => {
  await ensureReady(request);
  await installPolicy(request, {
    rules: [
      {
        id: 'internal',
        name: 'Internal transfers',
        match: { destination: 'INTERNAL' },
        action: 'ALLOW',
      },
      {
        id: 'address-book',
        name: 'Address book',
        match: { destination: 'ADDRESS_BOOK' },
        action: 'REQUIRE_APPROVAL',
        approvals: { count: 1, fromRoles: ['treasury', 'admin'] },
      },
      {
        id: 'other-destinations',
        name: 'Any other destination',
        match: { destination: 'ANY' },
        action: 'REQUIRE_APPROVAL',
        approvals: { count: 1, fromRoles: ['admin'] },
      },
    ],
  });
});

/** A second operator in its own browser context (own cookies, own live socket). */
async function secondOperator(browser: Browser, username: 'admin' | 'admin2'): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (username === 'admin') {
    await signIn(page, 'admin');
    return page;
  }
  const password = demoCredentials().operators.find((o) => o.username === username)?.password;
  if (!password) throw new Error(`no demo operator ${username}`);
  await page.goto('/');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  return page;
}

test('treasury requests a withdrawal, an admin approves it in another browser, both see it confirm live', async ({
  page,
  request,
  browser,
}) => {
  const wallet = await createFundedWallet(request, 100);
  await signIn(page, 'treasury');
  await page.goto('/approvals?view=MINE');
  const mine = page.getByRole('table', { name: 'Withdrawal requests' });

  // The request is made through the BFF (the withdrawal form's governance step comes later).
  const requestId = await requestApproval(request, {
    walletId: wallet.walletId,
    amountAtomic: '7000000',
    key: `e2e-approval-${wallet.walletId}`,
  });
  // No reload: the new request reaches the treasury's list through the live stream.
  await expect(mine.getByText('AWAITING APPROVAL').first()).toBeVisible();

  const admin = await secondOperator(browser, 'admin');
  await expect(
    admin.getByRole('link', { name: /Approvals\s*\d+ waiting for your approval/ }),
  ).toBeVisible();
  await admin.goto(`/approvals/${requestId}`);
  await expect(admin.getByRole('main')).toContainText('Rule "Any other destination" matches');
  await expectAccessible(admin);
  await saveScreenshot(admin, 'approval-1-request');
  await admin.getByRole('button', { name: 'Approve' }).click();
  await expect(admin.getByRole('main').getByText('SUBMITTED').first()).toBeVisible();

  // The treasury's list follows without reload, then the transaction confirms live.
  await expect(mine.getByText('SUBMITTED').first()).toBeVisible();
  await mine.getByRole('link').first().click();
  await page.getByRole('main').locator('a[href^="/transactions/"]').first().click();
  await expect(page.getByRole('main').getByText('CONFIRMED').first()).toBeVisible({
    timeout: 45_000,
  });
  await admin.getByRole('main').locator('a[href^="/transactions/"]').first().click();
  await expect(admin.getByRole('main').getByText('CONFIRMED').first()).toBeVisible({
    timeout: 45_000,
  });
  await saveScreenshot(admin, 'approval-2-confirmed');
  await admin.context().close();
});

test('an address-book entry proposed by an admin needs a second admin', async ({
  page,
  browser,
}) => {
  await signIn(page, 'admin');
  await page.goto('/address-book');
  const label = `Exchange ${Date.now().toString(36)}`;
  await page
    .getByRole('textbox', { name: 'Address', exact: true })
    .fill('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8');
  await page.getByRole('textbox', { name: 'Label', exact: true }).fill(label);
  await page.getByRole('button', { name: 'Propose entry' }).click();
  const pending = page.getByRole('table', { name: 'Entries pending approval' });
  await expect(pending).toContainText(label);
  await expect(pending).toContainText('Another admin must approve');

  const admin2 = await secondOperator(browser, 'admin2');
  await admin2.goto('/address-book');
  await admin2.getByRole('button', { name: `Approve ${label}` }).click();
  await expect(admin2.getByRole('table', { name: 'Active entries' })).toContainText(label);
  // The proposer's page moves the entry to Active without reload.
  await expect(page.getByRole('table', { name: 'Active entries' })).toContainText(label);
  await expectAccessible(page);
  await saveScreenshot(page, 'approval-3-address-book');
  await admin2.context().close();
});

test('an admin asks the policy what it would do, from a wallet picked by name and address', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 10);
  await signIn(page, 'admin');
  await page.goto('/policy');
  const picker = page.getByRole('combobox', { name: 'From wallet' });
  const option = picker.locator('option', { hasText: wallet.address });
  await expect(option).toHaveText(new RegExp(`^${wallet.accountName}`));
  await picker.selectOption((await option.getAttribute('value')) ?? '');
  await page.getByRole('textbox', { name: 'Destination address' }).fill(EXTERNAL_ADDRESS);
  await page.getByRole('textbox', { name: 'Amount (TRX)' }).fill('2.5');
  await page.getByRole('button', { name: 'Run the policy' }).click();
  const result = page.getByRole('region', { name: 'Dry-run result' });
  await expect(result).toContainText('Needs 1 approval from admin (rule "Any other destination").');
  await expectAccessible(page);
  await saveScreenshot(page, 'approval-4-dry-run');
});

test('an admin approves while the settlement service refuses withdrawals: the overview counts it as being sent until it goes out', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 10);
  const requestId = await requestApproval(request, {
    walletId: wallet.walletId,
    amountAtomic: '1500000',
    key: `e2e-approval-outage-${wallet.walletId}`,
  });
  await signIn(page, 'admin');
  await page.goto(`/approvals/${requestId}`);
  await setFaults(request, { upstreamUnavailableRate: 1 });
  try {
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('main')).toContainText('Approved and being sent.');

    // No transaction exists yet, so "in flight" alone would read as if nothing were leaving.
    await page.goto('/');
    const beingSent = page.getByRole('link', { name: /^\d+ approved requests? being sent$/ });
    await expect(beingSent).toBeVisible();
    await expect(beingSent).toHaveAttribute('href', '/approvals?view=APPROVED');
    await expectAccessible(page);
    await saveScreenshot(page, 'approval-5-overview-being-sent');
  } finally {
    await setFaults(request, { upstreamUnavailableRate: null });
  }
  // The BFF sends it again on its own (2 s, then 4 s ... after the refusal); the overview
  // follows live, without a reload.
  await expect(page.getByRole('link', { name: /being sent/ })).toHaveCount(0, { timeout: 20_000 });
  await page.goto(`/approvals/${requestId}`);
  await expect(page.getByRole('main').getByText('SUBMITTED').first()).toBeVisible();
});

test('open requests promise money the upstream has not reserved: the form warns, the approver sees it, live', async ({
  page,
  request,
  browser,
}) => {
  const wallet = await createFundedWallet(request, 100);
  const opened: string[] = [];
  const ask = async (amountAtomic: string, name: string) => {
    const id = await requestApproval(request, {
      walletId: wallet.walletId,
      amountAtomic,
      key: `e2e-open-${name}-${wallet.walletId}`,
    });
    opened.push(id);
    return id;
  };
  try {
    // 60 and 30 TRX of the 100 promised; nothing is reserved upstream until a request is sent.
    await ask('60000000', 'first');
    const second = await ask('30000000', 'second');
    await signIn(page, 'treasury');
    await page.setViewportSize({ width: 1440, height: 900 });
    const form = await fillWithdrawalForm(page, { walletId: wallet.walletId, amount: '20' });
    await expect(form).toContainText('2 open requests from this wallet: 90TRX');
    // 20 fits the 100 available on its own, so only the warning says it does not beside them.
    await expect(form.getByRole('note')).toContainText(
      'With the 2 open requests from this wallet (90TRX and their fees), this and its 1.1TRX fee would exceed the available balance',
    );
    await expect(form.getByRole('button', { name: 'Review withdrawal' })).toBeEnabled();
    await saveScreenshot(page, 'open-requests-1-form');
    await page.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(page, 'open-requests-2-form-phone');

    // The approver of the 30 TRX: 100 - (30 + 1.1) - (60 + 1.1) leaves 7.8.
    const admin = await secondOperator(browser, 'admin');
    await admin.setViewportSize({ width: 1440, height: 900 });
    await admin.goto(`/approvals/${second}`);
    const funds = admin.locator('section', {
      has: admin.getByRole('heading', { name: 'Funds' }),
    });
    await expect(funds.getByRole('status')).toHaveText(
      'Covered: 7.8TRX left after this and the other open requests.',
    );
    await expectAccessible(admin);
    await saveScreenshot(admin, 'open-requests-3-approver-covered');

    // A third request of 10 TRX arrives: the approver's page follows live, without a reload.
    await ask('10000000', 'third');
    await expect(funds.getByRole('status')).toHaveText(
      'Not covered: short by 3.3TRX. If approved, it may fail when sent.',
    );
    await expect(funds).toContainText('70TRX in 2 requests, and their fees');
    await saveScreenshot(admin, 'open-requests-4-approver-short');
    await admin.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(admin, 'open-requests-5-approver-short-phone');

    // The overview's TRX card says what open requests take of Available.
    await page.goto('/');
    const trx = page
      .getByRole('list', { name: 'Totals per asset and chain' })
      .getByRole('listitem')
      .filter({ hasText: 'TRX on' })
      .first();
    await expect(trx).toContainText(/In open requests \(\d+( or more)?\)/);
    await saveScreenshot(page, 'open-requests-6-overview-phone');
    // The request lists cannot be read: the overview says Available may include what they
    // promise, and calls nothing "not yet promised".
    const cutLists = '**/bff/withdrawal-requests?*';
    await page.route(cutLists, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            code: 'UPSTREAM_UNAVAILABLE',
            message: 'The store is not reachable.',
            requestId: 'e2e',
            retryable: true,
            details: [],
          },
        }),
      }),
    );
    await page.reload();
    await expect(
      page.getByText(
        'Open withdrawal requests could not be read: Available may include money they already promise.',
      ),
    ).toBeVisible({ timeout: 15_000 });
    await expect(trx).not.toContainText('Not yet promised');
    await saveScreenshot(page, 'open-requests-6b-overview-unreadable-phone');
    await page.setViewportSize({ width: 1440, height: 900 });
    await saveScreenshot(page, 'open-requests-6c-overview-unreadable');
    await page.unroute(cutLists);
    await page.setViewportSize({ width: 390, height: 844 });
    // The wallet's own page: 60 + 30 + 10 TRX in its three open requests.
    await page.goto(`/wallets/${wallet.walletId}`);
    const trxCard = page
      .getByRole('list', { name: 'Wallet balances' })
      .getByRole('listitem')
      .filter({ hasText: /^TRX/ });
    await expect(trxCard).toContainText('In open requests100 in 3');
    await saveScreenshot(page, 'open-requests-7-wallet-phone');
    await admin.context().close();
  } finally {
    // Leave no open request behind for the journeys that count them. Signed in here: each
    // request above signed the API context in anew, which replaced an earlier session.
    const treasury = await BffSession.signIn(request, 'treasury');
    for (const id of opened) await treasury.post(`/bff/withdrawal-requests/${id}/cancel`, {});
  }
});
