import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NormalizedEvent } from '@settlement/protocol';
import { createNobleSigner, decodeKey32 } from '@settlement/protocol/signing';
import { SettlementApiError } from './errors';
import { connectEventStream } from './events';
import { iterateItems } from './pages';
import { createSettlementClient, withQuery, type SettlementClient } from './rest';

/**
 * The client against the real sandbox, run as a child process (`apps/sandbox/src/main.ts`):
 * the sandbox verifies every signature, so acceptance proves the signing.
 */
const SANDBOX_MAIN = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../apps/sandbox/src/main.ts',
);
const ALL_SCOPES = [
  'wallets:create',
  'wallets:read',
  'accounts:read',
  'transactions:read',
  'withdrawals:create',
  'mpc:initialize',
  'mpc:read',
  'websockets:read',
];

let child: ChildProcess;
let dataDir: string;
let baseUrl = '';
const adminToken = randomBytes(24).toString('hex');
let client: SettlementClient;
let orgId = '';
let keyId = '';
let seed: Uint8Array;

async function control(path: string, body: unknown): Promise<Record<string, string>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Record<string, string>;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'client-sandbox-'));
  child = spawn(
    process.execPath,
    ['--import', 'tsx', SANDBOX_MAIN, '--port', '0', '--data', dataDir],
    {
      env: { ...process.env, SANDBOX_ADMIN_TOKEN: adminToken, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  baseUrl = await new Promise<string>((resolvePromise, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolvePromise(match[1]);
    });
    child.once('exit', (code) => {
      reject(new Error(`sandbox exited ${String(code)}`));
    });
  });
  orgId = (await control('/sandbox/orgs', { name: 'Client Test' })).orgId ?? '';
  const key = await control(`/sandbox/orgs/${orgId}/api-keys`, { scopes: ALL_SCOPES });
  keyId = key.keyId ?? '';
  seed = decodeKey32(key.privateKey ?? '', 'privateKey');
  client = createSettlementClient({ baseUrl, signer: createNobleSigner(keyId, seed) });
}, 60_000);

afterAll(async () => {
  await client.close();
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('client against the sandbox', () => {
  it('parses the typed resources and follows cursors across pages', async () => {
    const catalog = await client.listAssets();
    expect(catalog.items.map((a) => a.asset).sort()).toEqual(['TRX', 'USDT']);
    const status = await client.getMpcStatus();
    expect(status).toMatchObject({ orgId, keyStatus: null });
    const names = ['Ana ~1', "Bo'b 2", 'Cy|3'];
    for (const name of names) await client.createAccount({ name });
    const seen: string[] = [];
    for await (const account of iterateItems((cursor) =>
      client.listAccounts({ limit: 1, cursor }),
    )) {
      seen.push(account.name);
    }
    expect(seen.sort()).toEqual([...names].sort());
    const first = await client.listAccounts({ limit: 1 });
    const detail = await client.getAccount(first.items[0]?.id ?? '');
    expect(detail.walletCount).toBe(0);
  });

  it('is accepted with targets that URL parsers re-encode', async () => {
    for (const search of ["bo'b", 'cy|3', 'ana ~1']) {
      const raw = `/api/v1/ledger/accounts?search=${encodeURIComponent(search).replace('~', '%7e')}`;
      const response = await client.send('GET', raw);
      expect(response.status, raw).toBe(200);
    }
    const typed = await client.listAccounts({ search: "Bo'b" });
    expect(typed.items.map((a) => a.name)).toEqual(["Bo'b 2"]);
    expect(withQuery('/x', { a: "'|~ " })).toBe("/x?a='%7C~%20");
  });

  it('turns an error envelope into a typed error with the requestId', async () => {
    const error = await client.getWallet('no-such-wallet').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettlementApiError);
    expect(error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', status: 404, retryable: false });
    expect((error as SettlementApiError).requestId).toBeTruthy();
    const wrongKey = createSettlementClient({
      baseUrl,
      signer: createNobleSigner(keyId, new Uint8Array(32).fill(7)),
    });
    await expect(wrongKey.listAssets()).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      status: 401,
    });
    await wrongKey.close();
  });

  it('receives account.created on the signed event stream', async () => {
    const events: NormalizedEvent[] = [];
    const stream = connectEventStream({
      wsUrl: `${baseUrl.replace('http:', 'ws:')}/v1/ws`,
      signer: createNobleSigner(keyId, seed),
      expectedOrgId: orgId,
      onEvent: (event) => {
        events.push(event);
      },
    });
    try {
      await vi.waitFor(
        () => {
          expect(stream.state).toBe('open');
        },
        { timeout: 10_000, interval: 20 },
      );
      const created = await client.createAccount({ name: 'Streamed' });
      await vi.waitFor(
        () => {
          expect(events.some((e) => e.data.accountId === created.id)).toBe(true);
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(events.find((e) => e.data.accountId === created.id)).toMatchObject({
        type: 'account.created',
        orgId,
      });
    } finally {
      await stream.close();
    }
  });
});
