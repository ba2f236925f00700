import {
  createFundedWallet,
  ensureReady,
  expect,
  expectAccessible,
  saveScreenshot,
  signIn,
  test,
  uniqueName,
} from '../fixtures';

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
});

test('treasury creates an account with metadata, then a wallet, and sees its address and QR', async ({
  page,
}) => {
  const name = uniqueName('Merchant');
  const externalId = `ext-${Date.now()}`;
  await signIn(page, 'treasury');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Accounts' })
    .click();
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Create account' }).click();
  const accountDialog = page.getByRole('dialog', { name: 'Create account' });
  await accountDialog.getByLabel('Name').fill(name);
  await accountDialog.getByLabel('External id (optional)').fill(externalId);
  const metadata = accountDialog.getByLabel('Metadata (optional JSON object)');
  await metadata.fill('{"region": "EU",');
  await expect(accountDialog.getByText(/not valid JSON|JSON/i).first()).toBeVisible();
  await metadata.fill('{"region": "EU", "tier": 2}');
  await expectAccessible(page);
  await saveScreenshot(page, 'account-1-create-dialog');
  await accountDialog.getByRole('button', { name: 'Create account' }).click();
  await expect(accountDialog).toHaveCount(0);

  // The new account's page shows its identity and metadata.
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText(externalId).first()).toBeVisible();
  await expect(page.getByText('"region"').first()).toBeVisible();
  await expectAccessible(page);
  await saveScreenshot(page, 'account-2-detail');

  await page.getByRole('button', { name: 'Create wallet' }).first().click();
  const walletDialog = page.getByRole('dialog', { name: 'Create wallet' });
  await walletDialog.getByLabel('Find account').fill(name);
  await walletDialog
    .getByLabel('Account', { exact: true })
    .selectOption({ label: `${name} (${externalId})` });
  await walletDialog.getByLabel('Chain', { exact: true }).selectOption('tron:nile');
  await expectAccessible(page);
  await walletDialog.getByRole('button', { name: 'Create wallet' }).click();
  await expect(walletDialog).toHaveCount(0);

  const qr = page.getByRole('img', { name: /QR code of address T/ });
  await expect(qr).toBeVisible();
  const label = (await qr.getAttribute('aria-label')) ?? '';
  const address = label.replace('QR code of address ', '');
  expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  await expect(page.getByRole('main').locator('code', { hasText: address })).toBeVisible();
  await expect(page.getByText('ACTIVE').first()).toBeVisible();
  await expectAccessible(page);
  await saveScreenshot(page, 'wallet-1-detail');

  // The wallet is listed under its account.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Wallets' })
    .click();
  await page.getByLabel('Address contains').fill(address.slice(0, 12));
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/addressContains=/);
  await expect(page.getByText(name).first()).toBeVisible();
  await expectAccessible(page);
});

test('treasury filters transactions by a wallet typed by its name, not its id', async ({
  page,
  request,
}) => {
  const wanted = await createFundedWallet(request, 12);
  const other = await createFundedWallet(request, 34);
  await signIn(page, 'treasury');
  await page.goto('/transactions');
  const wallet = page.getByRole('combobox', { name: 'Wallet' });
  await wallet.fill(wanted.accountName);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(new RegExp(`walletId=${wanted.walletId}`));
  await expect(wallet).toHaveValue(wanted.walletId);
  await expect(
    page.getByRole('search').getByTitle(new RegExp(`^${wanted.accountName}`)),
  ).toBeVisible();
  const table = page.getByRole('table', { name: 'Transactions' });
  await expect(table.getByRole('row')).toHaveCount(2);
  // By account name and amount cell, not a bare "34": a random name may hold those digits.
  await expect(table).toContainText(wanted.accountName);
  await expect(table).not.toContainText(other.accountName);
  await expect(table.getByTitle('12000000 atomic units')).toBeVisible();
  await expectAccessible(page);
  await saveScreenshot(page, 'transactions-by-wallet-name');
});
