import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test';
import type { OneTimePassword } from '@settlement/protocol';
import { STACK } from '../stack';
import {
  BffSession,
  createFundedWallet,
  ensureReady,
  expect,
  expectAccessible,
  saveScreenshot,
  test,
} from '../fixtures';
import { installPolicy, requestApproval } from '../policy';

/**
 * WebAuthn refuses an IP address as relying-party id, so these journeys browse the stack as
 * http://localhost:<port> (a secure context, like 127.0.0.1): the BFF's RP id is `localhost`
 * and its allowed origin this one (playwright.config.ts sets both).
 */
const LOCAL_URL = `http://localhost:${STACK.port}`;

/** A strong password of the operator's own (replaces the one-time password). */
const OWN_PASSWORD = 'violet lantern drifts over quiet harbor 42';

/** Chromium's virtual authenticator on `page`: user-verifying, answers every prompt. */
async function addAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { cdp, id: authenticatorId };
}

async function credentialsOf(authenticator: { cdp: CDPSession; id: string }) {
  const { credentials } = await authenticator.cdp.send('WebAuthn.getCredentials', {
    authenticatorId: authenticator.id,
  });
  return credentials;
}

/** A browser context on the localhost origin (own cookies, own authenticator). */
async function newBrowser(browser: Browser, userAgent?: string): Promise<Page> {
  const context: BrowserContext = await browser.newContext({
    baseURL: LOCAL_URL,
    ...(userAgent ? { userAgent } : {}),
  });
  return context.newPage();
}

async function enterPassword(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Password, then the passkey (the virtual authenticator answers the browser's prompt). */
async function signInWithPasskey(page: Page, username: string): Promise<void> {
  await enterPassword(page, username, OWN_PASSWORD);
  await expect(page.getByText('Confirm it is you with your passkey.')).toBeVisible();
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/**
 * One dedicated admin per run, created through the admin API: the demo operators never get a
 * passkey (a passkey makes step-up mandatory for every later journey of that operator).
 */
const username = `pk-${Date.now().toString(36)}`;
let page: Page;
let authenticator: { cdp: CDPSession; id: string };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request, browser }) => {
  await ensureReady(request);
  await installPolicy(request, {
    rules: [
      {
        id: 'other-destinations',
        name: 'Any other destination',
        match: { destination: 'ANY' },
        action: 'REQUIRE_APPROVAL',
        approvals: { count: 1, fromRoles: ['admin'] },
      },
    ],
  });
  const admin = await BffSession.signIn(request, 'admin');
  const created = await admin.post<OneTimePassword>('/bff/operators', { username, role: 'admin' });
  expect(created.operator).toMatchObject({ username, role: 'admin', mustChangePassword: true });

  page = await newBrowser(browser);
  authenticator = await addAuthenticator(page);
  // First sign-in: the one-time password is replaced (the sandbox demo does not require a
  // passkey, so signing in is complete without one).
  await enterPassword(page, username, created.oneTimePassword);
  await page.getByLabel('New password', { exact: true }).fill(OWN_PASSWORD);
  await page.getByLabel('Repeat the new password').fill(OWN_PASSWORD);
  await page.getByRole('button', { name: 'Set password and continue' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
});

test.afterAll(async () => {
  await page.context().close();
});

test('an operator enrolls a passkey on the passkeys page', async () => {
  await page.goto('/passkeys');
  await expect(page.getByRole('heading', { name: 'Passkeys', level: 1 })).toBeVisible();
  await expect(page.getByText('You have no passkey yet.')).toBeVisible();
  await page.getByLabel('Passkey name').fill('Virtual laptop');
  await page.getByRole('button', { name: 'Add passkey' }).click();

  const table = page.getByRole('table', { name: 'Your passkeys' });
  await expect(table.getByRole('row', { name: /Virtual laptop/ })).toContainText('Never');
  await expect(page.getByLabel('Passkey name')).toHaveValue('');
  const credentials = await credentialsOf(authenticator);
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ rpId: 'localhost', isResidentCredential: true });
  await expectAccessible(page);
  await saveScreenshot(page, 'passkeys-1-enrolled');
});

test('approving a withdrawal request asks for the passkey in place and then approves', async ({
  request,
}) => {
  // The request comes from the demo treasury through the BFF; the journey is the approval.
  const wallet = await createFundedWallet(request, 30);
  const requestId = await requestApproval(request, {
    walletId: wallet.walletId,
    amountAtomic: '3000000',
    key: `e2e-passkey-approval-${wallet.walletId}`,
  });

  // This session signed in with the password alone and has just enrolled: its first sensitive
  // action needs a step-up.
  await page.goto(`/approvals/${requestId}`);
  await expect(page.getByRole('main')).toContainText('Rule "Any other destination" matches');
  // A marker of this very document: it must survive the step-up (no reload, no navigation).
  await page.evaluate(() => {
    (window as unknown as { stepUpMarker: string }).stepUpMarker = 'same page';
  });
  const approvals: number[] = [];
  const stepUps: string[] = [];
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path === `/bff/withdrawal-requests/${requestId}/approve`) {
      approvals.push(response.status());
    }
    if (path.startsWith('/bff/auth/step-up/')) stepUps.push(`${path} ${response.status()}`);
  });
  const before = (await credentialsOf(authenticator))[0]?.signCount ?? 0;

  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('main').getByText('SUBMITTED').first()).toBeVisible();

  // Refused once (STEP_UP_REQUIRED), one passkey assertion, the same approval sent again.
  expect(approvals).toEqual([401, 200]);
  expect(stepUps).toEqual(['/bff/auth/step-up/options 200', '/bff/auth/step-up/verify 200']);
  expect((await credentialsOf(authenticator))[0]?.signCount).toBeGreaterThan(before);
  expect(
    await page.evaluate(() => (window as unknown as { stepUpMarker?: string }).stepUpMarker),
  ).toBe('same page');
  await expect(page).toHaveURL(new RegExp(`/approvals/${requestId}$`));
  await expect(page.getByRole('alert')).toHaveCount(0);
  await saveScreenshot(page, 'passkeys-2-step-up-approved');
});

test('signing in again takes the password, then the passkey', async () => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  await enterPassword(page, username, OWN_PASSWORD);
  // The password alone does not sign in: the passkey step follows.
  await expect(page.getByRole('button', { name: 'Use your passkey' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  await expectAccessible(page);
  await saveScreenshot(page, 'passkeys-3-passkey-step');
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

  await page.goto('/passkeys');
  const row = page.getByRole('table', { name: 'Your passkeys' }).getByRole('row', {
    name: /Virtual laptop/,
  });
  await expect(row).not.toContainText('Never');
});

test("ending another browser's session from the sessions page signs that browser out", async ({
  browser,
}) => {
  // The other browser holds the same (synced) passkey: a copy of the credential, its counter
  // included, so the BFF's signature-counter check sees it move forward.
  const other = await newBrowser(
    browser,
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  );
  const otherAuthenticator = await addAuthenticator(other);
  const [credential] = await credentialsOf(authenticator);
  if (!credential) throw new Error('the virtual authenticator holds no passkey');
  await otherAuthenticator.cdp.send('WebAuthn.addCredential', {
    authenticatorId: otherAuthenticator.id,
    credential,
  });
  await signInWithPasskey(other, username);
  await other.goto('/wallets');
  await expect(other.getByRole('heading', { name: 'Wallets', level: 1 })).toBeVisible();
  await expect(other.getByRole('status', { name: 'Live updates: Live' })).toBeVisible();

  await page.goto('/sessions');
  const sessions = page.getByRole('table', { name: 'Your sessions' });
  await expect(sessions.getByRole('row', { name: /This session/ })).toContainText(
    'Chrome on Linux',
  );
  await expectAccessible(page);
  await saveScreenshot(page, 'passkeys-4-sessions');
  await sessions.getByRole('button', { name: 'End session on Chrome on Windows' }).click();
  await expect(sessions.getByRole('button', { name: /End session on/ })).toHaveCount(0);

  // Its socket closes within a second and the page says so in place.
  await expect(other.getByRole('heading', { name: 'Signed out' })).toBeVisible({
    timeout: 2_000,
  });
  await expect(other.getByRole('alert')).toContainText('Your session ended');
  await expect(other).toHaveURL(/\/wallets$/);
  // This browser is still signed in.
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await other.context().close();
});
