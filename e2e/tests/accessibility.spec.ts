import { ensureReady, expect, expectAccessible, saveScreenshot, signIn, test } from '../fixtures';

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
});

test('every page of the console passes axe with no serious or critical violation', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(page);

  await signIn(page, 'treasury');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of [
    'Overview',
    'Accounts',
    'Wallets',
    'Transactions',
    'Events',
    'Support',
    'Setup',
  ]) {
    await nav.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page);
  }
  await page.goto('/transactions/new');
  await expect(page.getByRole('heading', { name: 'New withdrawal', level: 1 })).toBeVisible();
  await expectAccessible(page);
  await saveScreenshot(page, 'accessibility-new-withdrawal');
});
