import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepositEventDataSchema } from '@settlement/protocol';
import {
  createOrgClient,
  createWallet,
  events,
  fund,
  getTransaction,
  ledgerProblems,
  makeReady,
  startHarness,
  waitForStatus,
  type Harness,
  type OrgClient,
  type WalletInfo,
} from '../test-support/sandbox-harness';

let harness: Harness;
let client: OrgClient;
let funded: WalletInfo;
let target: WalletInfo;

beforeAll(async () => {
  harness = await startHarness({ blockMs: 15 });
  client = await createOrgClient(harness);
  await makeReady(harness, client);
  funded = await createWallet(client, 'tron:nile', 'Treasury');
  target = await createWallet(client, 'tron:nile', 'Merchant');
  await fund(harness, client, funded.id, 'TRX', '5000000');
}, 30_000);

afterAll(async () => {
  await harness.close();
});

describe('deposits', () => {
  it('goes observed, created, confirmed, credited, with the data the interface lists', async () => {
    const response = await harness.admin('POST', `/sandbox/orgs/${client.orgId}/deposits`, {
      walletId: target.id,
      asset: 'USDT',
      amountAtomic: '3000000',
    });
    expect(response.status).toBe(202);
    const { transactionId, txHash } = response.body as { transactionId: string; txHash: string };
    expect(txHash).toMatch(/^[0-9a-f]{64}$/);
    const pending = await getTransaction(client, transactionId);
    expect(pending).toMatchObject({
      type: 'DEPOSIT',
      status: 'PENDING',
      direction: 'CREDIT',
      transferKind: 'DEPOSIT',
    });
    await waitForStatus(client, transactionId, 'CONFIRMED');
    const related = events(harness, client.orgId).filter(
      (e) => e.data.transactionId === transactionId,
    );
    const sequence = related.map((e) => e.type).filter((t) => t !== 'transaction.updated');
    expect(sequence).toEqual([
      'deposit.observed',
      'transaction.created',
      'deposit.confirmed',
      'transaction.confirmed',
      'deposit.credited',
    ]);
    for (const event of related.filter((e) => e.type.startsWith('deposit.'))) {
      expect(DepositEventDataSchema.safeParse(event.data).success).toBe(true);
      expect(event.data).toMatchObject({ walletId: target.id, txHash, requiredConfirmations: 19 });
    }
    expect(related.at(-1)?.data).toMatchObject({ confirmations: 19 });
    expect(ledgerProblems(harness)).toEqual([]);
  });

  it('rejects bad deposits cleanly', async () => {
    const path = `/sandbox/orgs/${client.orgId}/deposits`;
    const bad = [
      [{ walletId: target.id, asset: 'USDT' }, 400, 'VALIDATION_ERROR'],
      [{ walletId: target.id, asset: 'USDT', amountAtomic: '0' }, 400, 'VALIDATION_ERROR'],
      [{ walletId: 'missing', asset: 'USDT', amountAtomic: '1' }, 404, 'RESOURCE_NOT_FOUND'],
      [{ walletId: target.id, asset: 'DOGE', amountAtomic: '1' }, 422, 'UNSUPPORTED_ASSET'],
      [
        { walletId: target.id, asset: 'TRX', amountAtomic: '1', fromAddress: 'Txyz' },
        422,
        'INVALID_ADDRESS',
      ],
    ] as const;
    for (const [body, status, code] of bad) {
      const response = await harness.admin('POST', path, body);
      expect([response.status, (response.body as { code: string }).code]).toEqual([status, code]);
    }
    const unauthenticated = await fetch(`${harness.baseUrl}${path}`, { method: 'POST' });
    expect(unauthenticated.status).toBe(401);
  });
});

describe('balances', () => {
  it('projects posted, reserved and available per enabled asset, zeros included, per wallet and account', async () => {
    const empty = await createWallet(client, 'tron:mainnet', 'Empty');
    const emptyItems = (await client.get(`/api/v1/wallets/${empty.id}/balances`)).body as {
      items: unknown[];
    };
    expect(emptyItems.items).toEqual([
      {
        asset: 'TRX',
        chain: 'tron:mainnet',
        postedBalance: '0',
        availableBalance: '0',
        reservedBalance: '0',
      },
      {
        asset: 'USDT',
        chain: 'tron:mainnet',
        postedBalance: '0',
        availableBalance: '0',
        reservedBalance: '0',
      },
    ]);
    const walletItems = (await client.get(`/api/v1/wallets/${funded.id}/balances`)).body as {
      items: { postedBalance: string; availableBalance: string; reservedBalance: string }[];
    };
    for (const item of walletItems.items) {
      expect(BigInt(item.postedBalance)).toBe(
        BigInt(item.availableBalance) + BigInt(item.reservedBalance),
      );
    }
    const accountItems = await client.get(`/api/v1/ledger/accounts/${funded.accountId}/balances`);
    expect(accountItems.status).toBe(200);
    expect(accountItems.body).toEqual(walletItems);
  });
});
