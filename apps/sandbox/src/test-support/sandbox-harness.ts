import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  API_SCOPES,
  MPC_INITIALIZE_BODY,
  utf8Bytes,
  type Balance,
  type Transaction,
} from '@settlement/protocol';
import {
  createNobleSigner,
  decodeKey32,
  signRestRequest,
  type Signer,
} from '@settlement/protocol/signing';
import { createSandbox, type Sandbox, type SandboxDeps } from '../app';
import { orgEvents, type StoredEvent } from '../events/outbox';
import { checkLedgerInvariants } from '../domain/ledger';
import type { MoneyMovementOptions } from '../domain/money-movement';

/**
 * Test support only (imported by *.test.ts): a real sandbox on 127.0.0.1:0 in a temp dir, a
 * signed REST caller, and the steps to get an org to "can withdraw": Co-Signer online, MPC key
 * ACTIVE, an account, wallets, funded by deposits through the control plane.
 */

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

type ApiResponse = { status: number; body: unknown; headers: Headers };

export type Harness = {
  sandbox: Sandbox;
  baseUrl: string;
  admin(method: string, path: string, body?: unknown): Promise<ApiResponse>;
  close(): Promise<void>;
};

export type RestartableHarness = Harness & {
  /** Stops the sandbox and starts a new one over the same data directory (a restart). */
  restart(): Promise<void>;
};

export async function startHarness(
  options: {
    blockMs?: number;
    money?: MoneyMovementOptions;
    /** Other createSandbox options (pingIntervalMs, streamPollMs, nowMs, ...). */
    sandbox?: Partial<Omit<SandboxDeps, 'dataDir' | 'adminToken'>>;
  } = {},
): Promise<RestartableHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-money-'));
  const boot = async () => {
    const sandbox = createSandbox({
      ...options.sandbox,
      dataDir,
      adminToken: ADMIN_TOKEN,
      blockMs: options.blockMs ?? 20,
      ...(options.money === undefined ? {} : { money: options.money }),
    });
    const { baseUrl } = await sandbox.listen(0);
    return { sandbox, baseUrl };
  };
  const first = await boot();
  const harness: RestartableHarness = {
    sandbox: first.sandbox,
    baseUrl: first.baseUrl,
    async admin(method, path, body) {
      const response = await fetch(`${harness.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json(), headers: response.headers };
    },
    async restart() {
      await harness.sandbox.stop();
      const next = await boot();
      harness.sandbox = next.sandbox;
      harness.baseUrl = next.baseUrl;
    },
    async close() {
      await harness.sandbox.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export type OrgClient = {
  orgId: string;
  signer: Signer;
  /** The key's Ed25519 seed (test support: lets a test act as this key's Co-Signer). */
  seed: Uint8Array;
  /** Signed call; `body` is sent as the exact JSON text given (string) or its JSON form. */
  call(
    method: string,
    target: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  post(target: string, body: unknown, idempotencyKey: string): Promise<ApiResponse>;
  get(target: string): Promise<ApiResponse>;
};

/** A signed client with a new key of `scopes`, for a new org or the given one. */
export async function createOrgClient(
  harness: Harness,
  scopes: readonly string[] = API_SCOPES,
  existingOrgId?: string,
): Promise<OrgClient> {
  let orgId = existingOrgId;
  if (orgId === undefined) {
    const org = await harness.admin('POST', '/sandbox/orgs', { name: 'Money test org' });
    orgId = (org.body as { orgId: string }).orgId;
  }
  const key = await harness.admin('POST', `/sandbox/orgs/${orgId}/api-keys`, { scopes });
  const { keyId, privateKey } = key.body as { keyId: string; privateKey: string };
  const seed = decodeKey32(privateKey);
  const signer = createNobleSigner(keyId, seed);
  const call: OrgClient['call'] = async (method, target, body, headers = {}) => {
    const bytes =
      body === undefined ? null : utf8Bytes(typeof body === 'string' ? body : JSON.stringify(body));
    const signed = signRestRequest(signer, { method, target, body: bytes });
    const response = await fetch(`${harness.baseUrl}${target}`, {
      method,
      headers: {
        ...signed,
        ...(bytes === null ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(bytes === null ? {} : { body: bytes }),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text.length === 0 ? null : (JSON.parse(text) as unknown),
      headers: response.headers,
    };
  };
  return {
    orgId,
    signer,
    seed,
    call,
    post: (target, body, idempotencyKey) =>
      call('POST', target, body, { 'x-idempotency-key': idempotencyKey }),
    get: (target) => call('GET', target),
  };
}

export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let keyCounter = 0;
export function newKey(prefix = 'k'): string {
  keyCounter += 1;
  return `${prefix}-${Date.now()}-${keyCounter}`;
}

/** Co-Signer online and the MPC key ACTIVE. */
export async function makeReady(harness: Harness, client: OrgClient): Promise<void> {
  await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/co-signer`, { online: true });
  const init = await client.post('/api/v1/mpc/initialize', MPC_INITIALIZE_BODY, newKey('mpc'));
  if (init.status !== 202) throw new Error(`mpc initialize: ${init.status}`);
  await waitFor(async () => {
    const status = await client.get('/api/v1/mpc/status');
    return (status.body as { keyStatus: string | null }).keyStatus === 'ACTIVE' ? true : undefined;
  }, 'MPC key ACTIVE');
}

export type WalletInfo = { id: string; address: string; accountId: string };

export async function createWallet(
  client: OrgClient,
  chain = 'tron:nile',
  accountName = 'Treasury',
): Promise<WalletInfo> {
  const account = await client.post('/api/v1/ledger/accounts', { name: accountName }, newKey());
  if (account.status !== 201) throw new Error(`account: ${account.status}`);
  const accountId = (account.body as { id: string }).id;
  const wallet = await client.post('/api/v1/wallets', { chain, accountId }, newKey('wallet'));
  if (wallet.status !== 201)
    throw new Error(`wallet: ${wallet.status} ${JSON.stringify(wallet.body)}`);
  const { id, address } = wallet.body as { id: string; address: string };
  return { id, address, accountId };
}

export async function getTransaction(client: OrgClient, id: string): Promise<Transaction> {
  const response = await client.get(`/api/v1/transactions/${id}`);
  if (response.status !== 200) throw new Error(`transaction ${id}: ${response.status}`);
  return response.body as Transaction;
}

export async function waitForStatus(
  client: OrgClient,
  id: string,
  status: string,
  timeoutMs = 10_000,
): Promise<Transaction> {
  return waitFor(
    async () => {
      const tx = await getTransaction(client, id);
      return tx.status === status ? tx : undefined;
    },
    `transaction ${id} ${status}`,
    timeoutMs,
  );
}

/** Deposits through the control plane and waits until it is credited. */
export async function fund(
  harness: Harness,
  client: OrgClient,
  walletId: string,
  asset: string,
  amountAtomic: string,
): Promise<string> {
  const response = await harness.admin('POST', `/sandbox/orgs/${client.orgId}/deposits`, {
    walletId,
    asset,
    amountAtomic,
  });
  if (response.status !== 202) throw new Error(`deposit: ${response.status}`);
  const { transactionId } = response.body as { transactionId: string };
  await waitForStatus(client, transactionId, 'CONFIRMED');
  return transactionId;
}

export async function balances(client: OrgClient, walletId: string): Promise<Map<string, Balance>> {
  const response = await client.get(`/api/v1/wallets/${walletId}/balances`);
  if (response.status !== 200) throw new Error(`balances: ${response.status}`);
  const items = (response.body as { items: Balance[] }).items;
  return new Map(items.map((b) => [b.asset, b]));
}

export function events(harness: Harness, orgId: string): StoredEvent[] {
  return orgEvents(harness.sandbox.ctx.db, orgId);
}

export function ledgerProblems(harness: Harness): string[] {
  return checkLedgerInvariants(harness.sandbox.ctx.db);
}
