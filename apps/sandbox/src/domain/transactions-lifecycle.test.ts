import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Transaction } from '@settlement/protocol';
import {
  createOrgClient,
  createWallet,
  getTransaction,
  ledgerProblems,
  makeReady,
  newKey,
  startHarness,
  waitForStatus,
  type Harness,
  type OrgClient,
  type WalletInfo,
} from '../test-support/sandbox-harness';

// Blocks and signatures come only when a test asks for them, so each step is observable.
const EXTERNAL = 'TPTWjRB9KnLWthWzLfgX1VnWjXGsZ6pVuD';

let harness: Harness;
let client: OrgClient;
let wallet: WalletInfo;

function mine(blocks: number): void {
  for (let i = 0; i < blocks; i += 1) harness.sandbox.money.chain.mineBlock();
}

async function deposit(asset: string, amountAtomic: string): Promise<void> {
  const response = await harness.admin('POST', `/sandbox/orgs/${client.orgId}/deposits`, {
    walletId: wallet.id,
    asset,
    amountAtomic,
  });
  const { transactionId } = response.body as { transactionId: string };
  mine(20);
  await waitForStatus(client, transactionId, 'CONFIRMED');
}

async function withdraw(body: Record<string, unknown>): Promise<Transaction> {
  const response = await client.post(
    '/api/v1/transactions',
    { walletId: wallet.id, toAddress: EXTERNAL, ...body },
    newKey('wd'),
  );
  expect(response.status).toBe(201);
  return response.body as Transaction;
}

/** What the balance effects took from the wallet's posted balance in `asset`, net. */
function postedOut(tx: Transaction, asset: string): bigint {
  return -(tx.balanceEffects ?? [])
    .filter((effect) => effect.asset === asset)
    .reduce((sum, effect) => sum + BigInt(effect.postedDeltaAtomic), 0n);
}

beforeAll(async () => {
  harness = await startHarness({
    money: { isChainTimerEnabled: false, coSignerPollMs: 3_600_000 },
  });
  client = await createOrgClient(harness);
  await makeReady(harness, client);
  wallet = await createWallet(client);
  await deposit('TRX', '1000000000');
  await deposit('USDT', '500000000');
}, 30_000);

afterAll(async () => {
  await harness.close();
});

describe('actual network fee', () => {
  it('is null while PENDING, signed or not, and appears at broadcast as the fee burned', async () => {
    const created = await withdraw({ asset: 'TRX', amountAtomic: '5000000' });
    expect(created.networkFeeSummary).toMatchObject({
      estimatedFeeAtomic: '1100000',
      actualFeeAtomic: null,
    });
    await harness.sandbox.money.coSigner.runOnce();
    const signed = await getTransaction(client, created.id);
    expect(signed.status).toBe('PENDING');
    expect(signed.networkFeeSummary?.actualFeeAtomic).toBeNull();

    mine(1);
    const broadcast = await getTransaction(client, created.id);
    expect(broadcast.onChainDetails?.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(broadcast.networkFeeSummary?.actualFeeAtomic).toBe('1100000');

    mine(19);
    const confirmed = await waitForStatus(client, created.id, 'CONFIRMED');
    expect(confirmed.networkFeeSummary?.actualFeeAtomic).toBe('1100000');
    expect(postedOut(confirmed, 'TRX')).toBe(5_000_000n + 1_100_000n);
  });

  it('stays null on a withdrawal that FAILED before broadcast, whose effects release everything', async () => {
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      nextTransactionOutcome: 'FAILED',
    });
    const created = await withdraw({ asset: 'TRX', amountAtomic: '7000000' });
    await harness.sandbox.money.coSigner.runOnce();
    mine(1);
    const failed = await waitForStatus(client, created.id, 'FAILED');
    expect(failed.onChainDetails).toBeNull();
    expect(failed.networkFeeSummary?.actualFeeAtomic).toBeNull();
    expect(failed.balanceEffects?.map((e) => e.kind)).toEqual(['RESERVE', 'RELEASE']);
    expect(postedOut(failed, 'TRX')).toBe(0n);
  });

  it('on FAILED_ON_CHAIN is the fee burned, equal to what the effects charged; the amount stays', async () => {
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      nextTransactionOutcome: 'FAILED_ON_CHAIN',
    });
    const created = await withdraw({
      asset: 'USDT',
      amountAtomic: '250500000',
      chainParams: { feeLimitAtomic: '20000000' },
    });
    await harness.sandbox.money.coSigner.runOnce();
    mine(20);
    const reverted = await waitForStatus(client, created.id, 'FAILED_ON_CHAIN');
    expect(reverted.networkFeeSummary?.actualFeeAtomic).toBe('13450000');
    expect(postedOut(reverted, 'TRX')).toBe(13_450_000n);
    expect(postedOut(reverted, 'USDT')).toBe(0n);
    expect(ledgerProblems(harness)).toEqual([]);
  });
});

describe('a block over PENDING transactions', () => {
  it('compiles no SQL once the statements exist: confirmations move on prepared statements', async () => {
    const created = [
      await withdraw({ asset: 'TRX', amountAtomic: '1000000' }),
      await withdraw({ asset: 'TRX', amountAtomic: '2000000' }),
    ];
    await harness.sandbox.money.coSigner.runOnce();
    mine(2); // broadcast (1 confirmation), then 2: every statement of the path has run once
    const { db } = harness.sandbox.ctx;
    const prepare = vi.spyOn(db, 'prepare');
    try {
      mine(2); // 3 and 4 confirmations: below the next step (5), so no event is written
      expect(prepare).not.toHaveBeenCalled();
    } finally {
      prepare.mockRestore();
    }
    for (const tx of created) {
      expect((await getTransaction(client, tx.id)).onChainDetails?.confirmations).toBe(4);
    }
    mine(16);
    for (const tx of created) await waitForStatus(client, tx.id, 'CONFIRMED');
  });
});
