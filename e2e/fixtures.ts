import AxeBuilder from '@axe-core/playwright';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Role } from '@settlement/protocol';
import { STACK } from './stack';

type DemoCredentials = {
  orgId: string;
  operators: { username: string; role: Role; password: string }[];
};

export function demoCredentials(): DemoCredentials {
  return JSON.parse(
    readFileSync(join(STACK.dataDir, 'demo-credentials.json'), 'utf8'),
  ) as DemoCredentials;
}

export function passwordOf(username: Role): string {
  const operator = demoCredentials().operators.find((o) => o.username === username);
  if (!operator) throw new Error(`no demo operator ${username}`);
  return operator.password;
}

export async function signIn(page: Page, username: Role): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(passwordOf(username));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/** Resolves once every finite animation and transition of the page has finished. */
async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getComputedTiming().iterations === Infinity,
      ),
  );
}

async function blockingViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Fails on any serious or critical axe-core violation of the current page. */
export async function expectAccessible(page: Page): Promise<void> {
  // Contrast is judged on the settled page: a toast fading in has a transient opacity that axe
  // would measure as low contrast. Endless animations (a pulsing dot, a skeleton) never settle.
  // A live event can bring a toast just after the page settled; a finding is re-judged once the
  // page has settled again, so only a violation that stays fails.
  let blocking: string[] = [];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await animationsSettled(page);
    blocking = await blockingViolations(page);
    if (blocking.length === 0) return;
  }
  expect(blocking).toEqual([]);
}

const shotsDir = join(import.meta.dirname, 'screenshots');

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage: true });
}

/** A signed-in BFF API session, for setting up data a journey is not about. */
export class BffSession {
  private constructor(
    private readonly request: APIRequestContext,
    private readonly csrfToken: string,
  ) {}

  static async signIn(request: APIRequestContext, username: Role): Promise<BffSession> {
    const response = await request.post('/bff/auth/login', {
      data: { username, password: passwordOf(username) },
      headers: { Origin: STACK.baseUrl },
    });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { csrfToken: string };
    return new BffSession(request, body.csrfToken);
  }

  async get<T>(path: string): Promise<T> {
    const response = await this.request.get(path);
    expect(response.ok(), `${path}: ${response.status()}`).toBe(true);
    return (await response.json()) as T;
  }

  async post<T>(path: string, data: unknown, operationId?: string): Promise<T> {
    const response = await this.request.post(path, {
      data,
      headers: {
        Origin: STACK.baseUrl,
        'X-CSRF-Token': this.csrfToken,
        ...(operationId ? { 'X-Operation-Id': operationId } : {}),
      },
    });
    expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  }

  /** Headers a browser sends with a mutating request of this session. */
  mutationHeaders(operationId?: string): Record<string, string> {
    return {
      Origin: STACK.baseUrl,
      'X-CSRF-Token': this.csrfToken,
      ...(operationId ? { 'X-Operation-Id': operationId } : {}),
    };
  }

  async put<T>(path: string, data: unknown): Promise<T> {
    const response = await this.request.put(path, {
      data,
      headers: { Origin: STACK.baseUrl, 'X-CSRF-Token': this.csrfToken },
    });
    expect(response.ok(), `${path}: ${response.status()}`).toBe(true);
    return (await response.json()) as T;
  }
}

type MpcStatus = { keyStatus: string | null; chains: { chain: string; ready: boolean }[] };

/** Brings the demo organization to ready (Co-Signer online, key ACTIVE, tron:nile ready). */
export async function ensureReady(request: APIRequestContext): Promise<void> {
  const admin = await BffSession.signIn(request, 'admin');
  await admin.put('/bff/sandbox/co-signer', { online: true });
  const status = await admin.get<MpcStatus>('/bff/api/v1/mpc/status');
  if (status.keyStatus === null) {
    await admin.post('/bff/api/v1/mpc/initialize', {}, 'e2e-mpc-initialize');
  }
  await expect
    .poll(
      async () => {
        const s = await admin.get<MpcStatus>('/bff/api/v1/mpc/status');
        return s.keyStatus === 'ACTIVE' && s.chains.some((c) => c.chain === 'tron:nile' && c.ready);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** Sets fault switches of the demo organization on the sandbox control plane. */
export async function setFaults(
  request: APIRequestContext,
  faults: Record<string, unknown>,
): Promise<void> {
  const response = await request.put(
    `${STACK.sandboxUrl}/sandbox/orgs/${demoCredentials().orgId}/faults`,
    { data: faults, headers: { Authorization: `Bearer ${STACK.adminToken}` } },
  );
  expect(response.ok()).toBe(true);
}

export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
}

export const test = base;
export { expect };

type Balance = { asset: string; postedBalance: string; availableBalance: string };

export async function availableAtomic(
  session: BffSession,
  walletId: string,
  asset = 'TRX',
): Promise<bigint> {
  const balances = await session.get<{ items: Balance[] }>(
    `/bff/api/v1/wallets/${walletId}/balances`,
  );
  return BigInt(balances.items.find((b) => b.asset === asset)?.availableBalance ?? '0');
}

/** An account and a tron:nile wallet funded by a credited sandbox deposit of `trx` TRX. */
export async function createFundedWallet(
  request: APIRequestContext,
  trx: number,
): Promise<{ accountId: string; accountName: string; walletId: string; address: string }> {
  const treasury = await BffSession.signIn(request, 'treasury');
  const accountName = uniqueName('Funded');
  const account = await treasury.post<{ id: string }>('/bff/api/v1/ledger/accounts', {
    name: accountName,
  });
  const wallet = await treasury.post<{ id: string; address: string }>(
    '/bff/api/v1/wallets',
    { chain: 'tron:nile', accountId: account.id },
    `e2e-wallet-${account.id}`,
  );
  const admin = await BffSession.signIn(request, 'admin');
  const amountAtomic = (BigInt(trx) * 1_000_000n).toString();
  await admin.post('/bff/sandbox/deposits', { walletId: wallet.id, asset: 'TRX', amountAtomic });
  await expect
    .poll(async () => (await availableAtomic(treasury, wallet.id)).toString(), { timeout: 30_000 })
    .toBe(amountAtomic);
  return { accountId: account.id, accountName, walletId: wallet.id, address: wallet.address };
}

/** A real, valid TRON mainnet-format address that belongs to no wallet of the demo org. */
export const EXTERNAL_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

/**
 * Opens New withdrawal for a wallet and fills it (TRX), without reviewing: the one place that
 * knows the form's fields, so every journey that sends a withdrawal through the page agrees.
 */
export async function fillWithdrawalForm(
  page: Page,
  input: { walletId: string; amount: string; toAddress?: string; clientReference?: string },
): Promise<Locator> {
  await page.goto(`/transactions/new?walletId=${input.walletId}`);
  const form = page.getByRole('form', { name: 'New withdrawal' });
  await expect(form.getByLabel('From wallet')).toHaveValue(input.walletId);
  await form.getByLabel('Asset', { exact: true }).selectOption('TRX');
  await form.getByLabel('Destination address').fill(input.toAddress ?? EXTERNAL_ADDRESS);
  await form.getByLabel('Amount (TRX)').fill(input.amount);
  if (input.clientReference !== undefined) {
    await form.getByLabel('Client reference (optional)').fill(input.clientReference);
  }
  return form;
}
