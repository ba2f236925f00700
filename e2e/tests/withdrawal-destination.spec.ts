import type { Page } from '@playwright/test';
import {
  BffSession,
  createFundedWallet,
  ensureReady,
  expect,
  saveScreenshot,
  signIn,
  test,
  uniqueName,
  fillWithdrawalForm,
} from '../fixtures';

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
});

/**
 * The "send a withdrawal" steps of this journey, up to asking for the review: fill the form
 * from `walletId` to `toAddress` and press Review. (One place to change should sending ever
 * need more steps, such as an approval.)
 */
async function requestReview(
  page: Page,
  walletId: string,
  toAddress: string,
  amount: string,
): Promise<void> {
  const form = await fillWithdrawalForm(page, { walletId, toAddress, amount });
  await form.getByRole('button', { name: 'Review withdrawal' }).click();
}

/** Every withdrawal POST the page makes. */
function withdrawalPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/bff/api/v1/transactions')) {
      posts.push(request.url());
    }
  });
  return posts;
}

test('a wallet of ours on another chain is blocked, with where the funds would land and why', async ({
  page,
  request,
}) => {
  const source = await createFundedWallet(request, 20);
  const treasury = await BffSession.signIn(request, 'treasury');
  const accountName = uniqueName('Mainnet reserve');
  const account = await treasury.post<{ id: string }>('/bff/api/v1/ledger/accounts', {
    name: accountName,
  });
  const mainnet = await treasury.post<{ address: string }>(
    '/bff/api/v1/wallets',
    { chain: 'tron:mainnet', accountId: account.id },
    `e2e-mainnet-wallet-${account.id}`,
  );

  await signIn(page, 'treasury');
  const posts = withdrawalPosts(page);
  await requestReview(page, source.walletId, mainnet.address, '1');
  const alert = page.getByRole('alert').filter({ hasText: 'Wrong network' });
  await expect(alert).toContainText(`the tron:mainnet wallet of account ${accountName}`);
  await expect(alert).toContainText('The funds would land at this address on tron:nile');
  await expect(alert).toContainText('the tron:mainnet wallet would never see them');
  await expect(page.getByText(/Internal transfer/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Review withdrawal' })).toBeDisabled();
  await expect(page.getByRole('heading', { name: 'Review the withdrawal' })).toHaveCount(0);
  await saveScreenshot(page, 'withdrawal-destination-wrong-network');
  expect(posts).toEqual([]);
});

test('an invalid address cannot reach the review', async ({ page, request }) => {
  const source = await createFundedWallet(request, 20);
  await signIn(page, 'treasury');
  const posts = withdrawalPosts(page);
  const valid = source.address;
  const cases: [address: string, says: RegExp][] = [
    [`${valid.slice(0, 33)}${valid.endsWith('1') ? '2' : '1'}`, /checksum does not match/],
    ['0x52908400098527886E0F7030069857D2E4169EE7', /not a TRON address/],
    ['not-a-tron-address', /TRON addresses start with T/],
  ];
  for (const [address, says] of cases) {
    await requestReview(page, source.walletId, address, '1');
    await expect(page.getByLabel('Destination address')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(says)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Review withdrawal' })).toBeDisabled();
    await expect(page.getByRole('heading', { name: 'Review the withdrawal' })).toHaveCount(0);
  }
  expect(posts).toEqual([]);
});
