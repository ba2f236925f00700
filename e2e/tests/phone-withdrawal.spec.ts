import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
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
import { allowAllWithdrawals } from '../policy';

const PHONE = { width: 390, height: 844 };
const SHOTS = join(import.meta.dirname, '..', 'screenshots');

// A phone: its size, and touch, so the send is tapped as a thumb would.
test.use({ viewport: PHONE, hasTouch: true });

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
  // Not a governance journey: the withdrawal goes straight through, as in withdrawal.spec.
  await allowAllWithdrawals(request);
});

/** At least 44 px tall: a thumb hits it (WCAG 2.5.5 target size). */
async function expectTappable(target: Locator): Promise<void> {
  await expect(target).toBeVisible();
  const box = await target.boundingBox();
  expect(box?.height ?? 0, `${target.toString()} is too small to tap`).toBeGreaterThanOrEqual(44);
}

/**
 * `target` is on screen as the page stands, no scrolling, and nothing covers its centre: what a
 * thumb taps there is the target itself.
 */
async function expectReachableWithoutScrolling(page: Page, target: Locator): Promise<void> {
  const scrollBefore = await page.evaluate(() => window.scrollY);
  const box = await target.boundingBox();
  if (!box) throw new Error(`${target.toString()} has no box`);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
  const isOnTop = await target.evaluate(
    (element, point) => {
      const hit = document.elementFromPoint(point.x, point.y);
      return hit !== null && element.contains(hit);
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
  expect(isOnTop, `${target.toString()} is covered`).toBe(true);
  // Measuring did not scroll the page either.
  expect(await page.evaluate(() => window.scrollY)).toBe(scrollBefore);
}

test('a treasurer does a whole withdrawal on a phone, tapping the sticky send, to CONFIRMED', async ({
  page,
  request,
}) => {
  const wallet = await createFundedWallet(request, 40);
  await signIn(page, 'treasury');

  const menu = page.getByRole('button', { name: 'Open menu' });
  await expectTappable(menu);
  await expectTappable(page.getByRole('button', { name: 'Sign out' }));
  await menu.click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  const transactions = drawer.getByRole('link', { name: 'Transactions' });
  await expectTappable(transactions);
  await transactions.click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();

  const newWithdrawal = page.getByRole('link', { name: 'New withdrawal' });
  await expectTappable(newWithdrawal);
  await newWithdrawal.click();
  await expect(page.getByRole('heading', { level: 1, name: 'New withdrawal' })).toBeVisible();

  const form = page.getByRole('form', { name: 'New withdrawal' });
  await form.getByLabel('From wallet').selectOption(wallet.walletId);
  await form.getByLabel('Asset', { exact: true }).selectOption('TRX');
  await form.getByLabel('Destination address').fill(EXTERNAL_ADDRESS);
  await form.getByLabel('Amount (TRX)').fill('3.25');
  await expect(form.getByRole('region', { name: 'Withdrawal policy' })).toContainText(
    'Will send now',
  );
  const reviewButton = form.getByRole('button', { name: 'Review withdrawal' });
  await expectTappable(reviewButton);
  await reviewButton.click();

  const review = page.getByRole('region', { name: 'Review the withdrawal' });
  await expect(review.getByRole('heading', { name: 'Review the withdrawal' })).toBeFocused();
  await expect(review.getByText('3250000')).toBeVisible(); // the atomic amount
  await expect(review.getByRole('region', { name: 'Withdrawal policy' })).toContainText(
    'Will send now',
  );
  const send = review.getByRole('button', { name: 'Send withdrawal' });
  const back = review.getByRole('button', { name: 'Back to edit' });
  // The review is taller than the screen: without the sticky bar the send would be below it.
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(
    PHONE.height,
  );
  await expectReachableWithoutScrolling(page, send);
  await expectReachableWithoutScrolling(page, back);
  await expectTappable(send);
  await expectTappable(back);
  await expectAccessible(page);

  // Scrolled to the end, the bar rests below the last line of the review: it hides nothing.
  const policy = review.getByRole('region', { name: 'Withdrawal policy' });
  const bar = send.locator('..');
  await page.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
  });
  await expect
    .poll(async () => {
      const [last, actions] = [await policy.boundingBox(), await bar.boundingBox()];
      return last && actions ? actions.y - (last.y + last.height) : -1;
    })
    .toBeGreaterThanOrEqual(0);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectAccessible(page);
    // What the phone shows at the top and at the end of the review. Viewport shots, not
    // saveScreenshot's full page: a full-page capture lays the sticky bar over the middle.
    for (const at of ['top', 'end'] as const) {
      await page.evaluate((isEnd) => {
        window.scrollTo(0, isEnd ? document.documentElement.scrollHeight : 0);
      }, at === 'end');
      await page.screenshot({
        path: join(SHOTS, `phone-withdrawal-390-${scheme}-review-${at}.png`),
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await expectReachableWithoutScrolling(page, send);

  await send.tap();
  await expect(page).toHaveURL(/\/transactions\/[^/]+$/);
  // The transaction opens at its top, though the review was left scrolled to its end, and the
  // answer's toast is whole on the screen, over the app header (menu and sign-out only), never
  // over the page's own heading.
  const toast = page
    .getByRole('region', { name: /^Notifications/ })
    .getByRole('listitem')
    .filter({ hasText: 'Withdrawal accepted' });
  await expect(toast).toBeVisible();
  const heading = page.getByRole('heading', { level: 1 });
  // Polled: the toast slides in from above the screen.
  await expect
    .poll(async () => {
      const [box, under] = [await toast.boundingBox(), await heading.boundingBox()];
      if (!box || !under) return 'no box';
      const isOnScreen = box.x >= 0 && box.x + box.width <= PHONE.width && box.y >= 0;
      return isOnScreen && box.y + box.height <= under.y ? 'clear' : JSON.stringify(box);
    })
    .toBe('clear');
  await page.screenshot({ path: join(SHOTS, 'phone-withdrawal-390-light-accepted-toast.png') });
  const main = page.getByRole('main');
  // No reload: the live stream carries the page to the terminal state.
  await expect(main.getByText('CONFIRMED').first()).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('list', { name: 'Status timeline' })).toBeVisible();
  await saveScreenshot(page, 'phone-withdrawal-390-light-confirmed');
});
