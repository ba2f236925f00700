import type { APIRequestContext } from '@playwright/test';
import {
  PolicyVersionsSchema,
  WithdrawalRequestSchema,
  tronAddressFromPublicKey,
} from '@settlement/protocol';
import {
  BffSession,
  createFundedWallet,
  ensureReady,
  expect,
  saveScreenshot,
  signIn,
  test,
  fillWithdrawalForm,
} from '../fixtures';

/**
 * The demo's default policy is the one the seed stored (version by "seed"). Other journeys
 * install their own, so this one puts the seeded document back as the newest version, rather
 * than keeping a second copy of it here.
 */
async function restoreDefaultPolicy(request: APIRequestContext): Promise<void> {
  const admin = await BffSession.signIn(request, 'admin');
  const { items } = PolicyVersionsSchema.parse(await admin.get('/bff/policy/versions'));
  const seeded = items.find((policy) => policy.createdBy === 'seed');
  if (!seeded) throw new Error('the seeded default policy is not among the stored versions');
  if (items[0]?.version === seeded.version) return;
  await admin.put('/bff/policy', {
    rules: seeded.rules,
    limits: seeded.limits,
    settings: seeded.settings,
  });
}

/** A valid TRON address that is no wallet of the demo org and in no address book. */
function freshExternalAddress(): string {
  const key = new Uint8Array(65);
  crypto.getRandomValues(key);
  key[0] = 4;
  return tronAddressFromPublicKey(key);
}

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
  await restoreDefaultPolicy(request);
});

test('treasury sees before review that an external withdrawal needs an admin, sends it for approval, and nothing leaves the wallet', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 20);
  const toAddress = freshExternalAddress();
  await signIn(page, 'treasury');

  const form = await fillWithdrawalForm(page, {
    walletId: wallet.walletId,
    toAddress,
    amount: '2',
  });
  await expect(form.getByText('Not in the address book.')).toBeVisible();

  // The dry run's answer, before the review.
  const policy = form.getByRole('region', { name: 'Withdrawal policy' });
  await expect(policy).toContainText(/needs 1 approval from admin/i);
  await expect(policy).toContainText('Any other destination');
  await form.getByRole('button', { name: 'Review withdrawal' }).click();

  const review = page.getByRole('region', { name: 'Review the withdrawal' });
  await expect(review.getByRole('heading', { name: 'Review the withdrawal' })).toBeVisible();
  await expect(review.getByRole('region', { name: 'Withdrawal policy' })).toContainText(
    /needs 1 approval from admin/i,
  );
  await review.getByRole('button', { name: 'Request approval' }).click();

  await expect(
    page.getByRole('heading', { name: 'Sent for approval — nothing has left the wallet yet' }),
  ).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '1 approval from admin' })).toBeVisible();
  const link = page.getByRole('link', { name: 'Open the request' });
  const href = await link.getAttribute('href');
  const id = decodeURIComponent(href?.replace(/^\/approvals\//, '') ?? '');
  expect(id).not.toBe('');
  await saveScreenshot(page, 'withdrawal-sent-for-approval');

  // The BFF holds the request; nothing reached the service for this wallet.
  const treasury = await BffSession.signIn(request, 'treasury');
  const held = WithdrawalRequestSchema.parse(
    await treasury.get(`/bff/withdrawal-requests/${encodeURIComponent(id)}`),
  );
  expect(held).toMatchObject({
    status: 'AWAITING_APPROVAL',
    walletId: wallet.walletId,
    toAddress,
    amountAtomic: '2000000',
    transactionId: null,
  });
  const sent = await treasury.get<{ items: unknown[] }>(
    `/bff/api/v1/transactions?walletId=${wallet.walletId}&type=WITHDRAWAL`,
  );
  expect(sent.items).toEqual([]);

  await link.click();
  await expect(page).toHaveURL(new RegExp(`/approvals/${id}$`));

  // The unsent draft went with the request: a new withdrawal starts empty.
  await page.goto(`/transactions/new?walletId=${wallet.walletId}`);
  await expect(form.getByLabel('Destination address')).toHaveValue('');
  await expect(page.getByRole('note', { name: 'Unsent draft' })).toHaveCount(0);

  // Leave no request awaiting approval for journeys that count the inbox.
  await treasury.post(`/bff/withdrawal-requests/${encodeURIComponent(id)}/cancel`, {});
});
