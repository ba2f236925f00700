import { expect, expectAccessible, saveScreenshot, signIn, test } from '../fixtures';

test('an admin walks Setup from an uninitialized organization to ready', async ({ page }) => {
  await signIn(page, 'admin');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Setup' }).click();
  await expect(page.getByRole('heading', { name: 'Setup', level: 1 })).toBeVisible();
  await expect(page.getByText('Setup incomplete')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Initialize MPC key' })).toBeDisabled();
  await expectAccessible(page);
  await saveScreenshot(page, 'onboarding-1-uninitialized');

  await page.getByRole('button', { name: 'Start simulated Co-Signer' }).click();
  await expect(page.getByRole('button', { name: 'Stop simulated Co-Signer' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start simulated Co-Signer' })).toHaveCount(0);
  const initialize = page.getByRole('button', { name: 'Initialize MPC key' });
  await expect(initialize).toBeEnabled();
  await saveScreenshot(page, 'onboarding-2-co-signer-online');

  // A double click must still start exactly one initialization (one durable key).
  await initialize.dblclick();
  await expect(page.getByText('Wallets and withdrawals can be created.')).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText('Setup incomplete')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Initialize MPC key' })).toHaveCount(0);
  await expectAccessible(page);
  await saveScreenshot(page, 'onboarding-3-ready');

  // A reload keeps the state: nothing offers a second initialization.
  await page.reload();
  await expect(page.getByText('Wallets and withdrawals can be created.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Initialize MPC key' })).toHaveCount(0);
});
