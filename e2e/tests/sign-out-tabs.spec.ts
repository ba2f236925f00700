import { STACK } from '../stack';
import { expect, expectAccessible, passwordOf, saveScreenshot, signIn, test } from '../fixtures';

/** Signing out is the operator's, not a tab's: every open tab says so within 2 s. */
const SIGNED_OUT_WITHIN_MS = 2_000;

test('signing out in one tab shows "Signed out" in the other, and signing in again returns to its page', async ({
  context,
  page,
}) => {
  await signIn(page, 'treasury');
  const other = await context.newPage();
  await other.goto('/wallets?status=ACTIVE');
  await expect(other.getByRole('heading', { name: 'Wallets', level: 1 })).toBeVisible();
  await expect(other.getByRole('status', { name: 'Live updates: Live' })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  await expect(other.getByRole('heading', { name: 'Signed out' })).toBeVisible({
    timeout: SIGNED_OUT_WITHIN_MS,
  });
  await expect(other.getByRole('alert')).toContainText('You signed out in another tab');
  // It stays put, with nothing half-alive: no reconnecting indicator, no console behind it.
  await expect(other).toHaveURL(/\/wallets\?status=ACTIVE$/);
  await expect(other.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  await expectAccessible(other);
  await saveScreenshot(other, 'sign-out-tabs-1-other-tab');

  await other.getByRole('link', { name: 'Sign in again' }).click();
  await other.getByLabel('Username').fill('treasury');
  await other.getByLabel('Password').fill(passwordOf('treasury'));
  await other.getByRole('button', { name: 'Sign in' }).click();
  await expect(other.getByRole('heading', { name: 'Wallets', level: 1 })).toBeVisible();
  await expect(other).toHaveURL(/\/wallets\?status=ACTIVE$/);
});

test('a session ended outside any tab reaches an open tab through the relay', async ({ page }) => {
  await signIn(page, 'support');
  await page.goto('/transactions');
  await expect(page.getByRole('status', { name: 'Live updates: Live' })).toBeVisible();

  // The same session ends without a console tab doing it (no tab to announce it): only the
  // relay's "session ended" close can tell the page.
  const me = await page.request.get('/bff/auth/me');
  const { csrfToken } = (await me.json()) as { csrfToken: string };
  const logout = await page.request.post('/bff/auth/logout', {
    headers: { Origin: STACK.baseUrl, 'X-CSRF-Token': csrfToken },
  });
  expect(logout.ok()).toBe(true);

  await expect(page.getByRole('heading', { name: 'Signed out' })).toBeVisible({
    timeout: SIGNED_OUT_WITHIN_MS,
  });
  await expect(page.getByRole('alert')).toContainText('Your session ended');
  await expect(page).toHaveURL(/\/transactions$/);
});
