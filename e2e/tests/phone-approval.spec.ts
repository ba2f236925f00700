import {
  createFundedWallet,
  ensureReady,
  expect,
  expectAccessible,
  EXTERNAL_ADDRESS,
  saveScreenshot,
  signIn,
  test,
} from '../fixtures';
import { installPolicy, requestApproval } from '../policy';

const PHONE = { width: 390, height: 844 };

test.use({ viewport: PHONE, hasTouch: true });

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
  await installPolicy(request, {
    rules: [
      {
        id: 'phone-trx',
        name: 'TRX withdrawals need an admin',
        match: { assets: ['TRX'], destination: 'ANY' },
        action: 'REQUIRE_APPROVAL',
        approvals: { count: 1, fromRoles: ['admin'] },
      },
    ],
    limits: [
      {
        id: 'phone-daily-trx',
        name: 'Daily TRX',
        scope: 'ORG',
        asset: 'TRX',
        windowHours: 24,
        maxAtomic: '5000000000000',
      },
    ],
  });
});

test('an admin on a phone reads a waiting request from its card, opens it and approves it', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 40);
  const requestId = await requestApproval(request, {
    walletId: wallet.walletId,
    amountAtomic: '12345678',
    key: `e2e-phone-approval-${wallet.walletId}`,
  });

  await signIn(page, 'admin');
  await page.goto('/approvals');
  // A card per request, not a table whose amount and destination start off screen.
  await expect(page.getByRole('table', { name: 'Withdrawal requests' })).toHaveCount(0);
  const card = page
    .getByRole('list', { name: 'Withdrawal requests' })
    .getByRole('listitem')
    .filter({ hasText: EXTERNAL_ADDRESS });
  await expect(card).toContainText('12.345678');
  await expect(card).toContainText('AWAITING APPROVAL');
  await expect(card).toContainText('treasury');
  const open = card.getByRole('link', { name: /^Open request/ });
  const box = await open.boundingBox();
  expect(box?.height ?? 0, 'Open request is big enough for a thumb').toBeGreaterThanOrEqual(40);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
  await expectAccessible(page);
  await saveScreenshot(page, 'phone-approval-1-list');

  await open.tap();
  await expect(page).toHaveURL(new RegExp(`/approvals/${requestId}$`));
  // The policy's limits, as the request explains its decision: cards, every amount in view.
  const limits = page.getByRole('list', { name: 'Limits' });
  await expect(limits).toContainText('Daily TRX');
  await expect(limits).toContainText('Within');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
  await saveScreenshot(page, 'phone-approval-2-request');
  await page.getByRole('button', { name: 'Approve' }).tap();
  await expect(page.getByRole('main').getByText('SUBMITTED').first()).toBeVisible();
});
