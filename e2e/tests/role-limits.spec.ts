import { STACK } from '../stack';
import { BffSession, expect, expectAccessible, saveScreenshot, signIn, test } from '../fixtures';

test('support sees no create actions, and a forced create is refused by the BFF', async ({
  page,
  request,
}) => {
  await signIn(page, 'support');
  for (const [link, heading] of [
    ['Accounts', 'Accounts'],
    ['Wallets', 'Wallets'],
  ] as const) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Create/ })).toHaveCount(0);
    await expectAccessible(page);
  }
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Setup' }).click();
  await expect(page.getByRole('button', { name: 'Initialize MPC key' })).toHaveCount(0);
  await saveScreenshot(page, 'role-limits-support-setup');

  // The UI hides the action; the BFF still enforces the role before any upstream call.
  const support = await BffSession.signIn(request, 'support');
  const csrf = await request.get('/bff/auth/me');
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const forced = await request.post('/bff/api/v1/ledger/accounts', {
    data: { name: 'Forced by support' },
    headers: { Origin: STACK.baseUrl, 'X-CSRF-Token': csrfToken },
  });
  expect(forced.status()).toBe(403);
  const body = (await forced.json()) as { code: string; requestId: string };
  expect(body.code).toBe('FORBIDDEN');
  expect(body.requestId).toBeTruthy();
  const accounts = await support.get<{ items: { name: string }[] }>(
    '/bff/api/v1/ledger/accounts?search=Forced%20by%20support',
  );
  expect(accounts.items).toHaveLength(0);
});
