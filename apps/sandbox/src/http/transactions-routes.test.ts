import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TransactionEventDataSchema,
  TransactionSchema,
  type Transaction,
} from '@settlement/protocol';
import { setAssetEnabled } from '../domain/assets';
import {
  balances,
  createOrgClient,
  createWallet,
  events,
  fund,
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

const EXTERNAL = 'TPTWjRB9KnLWthWzLfgX1VnWjXGsZ6pVuD';
const BAD_CHECKSUM = 'TPTWjRB9KnLWthWzLfgX1VnWjXGsZ6pVuA';
const TRX_FEE = 1_100_000n;

let harness: Harness;
let client: OrgClient;
let wallet: WalletInfo;
let second: WalletInfo;

beforeAll(async () => {
  harness = await startHarness({ blockMs: 15 });
  client = await createOrgClient(harness);
  await makeReady(harness, client);
  wallet = await createWallet(client, 'tron:nile', 'Treasury');
  second = await createWallet(client, 'tron:nile', 'Merchant');
  await fund(harness, client, wallet.id, 'TRX', '1000000000'); // 1,000 TRX
  await fund(harness, client, wallet.id, 'USDT', '500000000'); // 500 USDT
}, 30_000);

afterAll(async () => {
  await harness.close();
});

function withdraw(body: Record<string, unknown>, key = newKey('wd')) {
  return client.post('/api/v1/transactions', { walletId: wallet.id, ...body }, key);
}

function snapshot() {
  const db = harness.sandbox.ctx.db;
  const count = (sql: string) => db.prepare<[], { n: number }>(sql).get()?.n ?? 0;
  return {
    transactions: count('SELECT COUNT(*) AS n FROM transactions'),
    entries: count('SELECT COUNT(*) AS n FROM ledger_entries'),
    intents: count('SELECT COUNT(*) AS n FROM signing_intents'),
    events: count('SELECT COUNT(*) AS n FROM events'),
  };
}

function eventsOf(transactionId: string) {
  return events(harness, client.orgId).filter(
    (e) =>
      e.type.startsWith('transaction.') &&
      (e.data.transactionId === transactionId || e.data.destinationTransactionId === transactionId),
  );
}

describe('POST /api/v1/transactions', () => {
  it('accepts a TRX withdrawal with the full detail and confirms it, posting amount and fee', async () => {
    const before = await balances(client, wallet.id);
    const response = await withdraw({
      asset: 'TRX',
      toAddress: EXTERNAL,
      amountAtomic: '10000000',
    });
    expect(response.status).toBe(201);
    const tx = TransactionSchema.parse(response.body);
    expect(tx).toMatchObject({
      walletId: wallet.id,
      account: { id: wallet.accountId, name: 'Treasury' },
      type: 'WITHDRAWAL',
      status: 'PENDING',
      chain: 'tron:nile',
      asset: 'TRX',
      amountAtomic: '10000000',
      displayAmount: '10',
      signedAmountAtomic: '-10000000',
      direction: 'DEBIT',
      onChainDetails: null,
      transferKind: 'EXTERNAL_WITHDRAWAL',
      toAddress: EXTERNAL,
      fromAddress: wallet.address,
      failureCode: null,
      networkFeeSummary: {
        asset: 'TRX',
        estimatedFeeAtomic: '1100000',
        reservedFeeAtomic: '1100000',
      },
    });
    expect(tx.billingReference).toMatch(/^BILL-[0-9A-F]{12}$/);
    expect(tx.correlationId).toBe(response.headers.get('x-correlation-id'));
    expect(tx.balanceEffects).toEqual([
      expect.objectContaining({ kind: 'RESERVE', asset: 'TRX', reservedDeltaAtomic: '11100000' }),
    ]);
    const reserved = await balances(client, wallet.id);
    expect(BigInt(reserved.get('TRX')?.availableBalance ?? '')).toBe(
      BigInt(before.get('TRX')?.availableBalance ?? '') - 10_000_000n - TRX_FEE,
    );
    expect(reserved.get('TRX')?.postedBalance).toBe(before.get('TRX')?.postedBalance);
    expect(ledgerProblems(harness)).toEqual([]); // reservations match the PENDING row

    const done = await waitForStatus(client, tx.id, 'CONFIRMED');
    expect(done.onChainDetails).toMatchObject({ confirmations: 19, requiredConfirmations: 19 });
    expect(done.onChainDetails?.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(done.networkFeeSummary?.actualFeeAtomic).toBe('1100000');
    const after = await balances(client, wallet.id);
    expect(BigInt(after.get('TRX')?.postedBalance ?? '')).toBe(
      BigInt(before.get('TRX')?.postedBalance ?? '') - 10_000_000n - TRX_FEE,
    );
    expect(after.get('TRX')?.reservedBalance).toBe(before.get('TRX')?.reservedBalance);

    const kinds = eventsOf(tx.id).map((e) => [e.type, e.data.stage]);
    expect(kinds.slice(0, 5)).toEqual([
      ['transaction.created', 'RESERVED'],
      ['transaction.updated', 'RESERVED'],
      ['transaction.updated', 'SIGNING'],
      ['transaction.updated', 'SIGNED'],
      ['transaction.updated', 'BROADCAST'],
    ]);
    expect(kinds.at(-1)).toEqual(['transaction.confirmed', 'DONE']);
    expect(kinds.filter(([type]) => type === 'transaction.updated').length).toBeGreaterThanOrEqual(
      7,
    );
    for (const event of eventsOf(tx.id)) {
      expect(TransactionEventDataSchema.safeParse(event.data).success).toBe(true);
      expect(event.correlationId).toBe(tx.correlationId);
      expect(event.data).toMatchObject({
        isInternalTransfer: false,
        transferKind: 'EXTERNAL_WITHDRAWAL',
        sourceTransactionId: null,
        destinationWalletId: null,
      });
    }
    expect(eventsOf(tx.id).at(-1)?.data).toMatchObject({ status: 'CONFIRMED' });
    expect(ledgerProblems(harness)).toEqual([]);
  });

  it('reserves the USDT amount and the TRX fee limit, then charges the actual fee', async () => {
    const before = await balances(client, wallet.id);
    const response = await withdraw({
      asset: 'USDT',
      toAddress: EXTERNAL,
      amountAtomic: '25000000',
      chainParams: { feeLimitAtomic: '40000000' },
    });
    expect(response.status).toBe(201);
    const tx = response.body as Transaction;
    expect(tx.networkFeeSummary).toMatchObject({
      reservedFeeAtomic: '40000000',
      feeLimitAtomic: '40000000',
      estimatedFeeAtomic: '13450000',
    });
    const held = await balances(client, wallet.id);
    expect(held.get('USDT')?.reservedBalance).toBe('25000000');
    expect(held.get('TRX')?.reservedBalance).toBe('40000000');
    expect(ledgerProblems(harness)).toEqual([]);
    await waitForStatus(client, tx.id, 'CONFIRMED');
    const after = await balances(client, wallet.id);
    const delta = (asset: string) =>
      BigInt(after.get(asset)?.postedBalance ?? '') -
      BigInt(before.get(asset)?.postedBalance ?? '');
    expect(delta('USDT')).toBe(-25_000_000n);
    expect(delta('TRX')).toBe(-13_450_000n);
    expect(after.get('TRX')?.reservedBalance).toBe('0');
    expect(ledgerProblems(harness)).toEqual([]);
  });

  it('rejects every failed precondition with its code, creating, reserving and emitting nothing', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ asset: 'TRX', toAddress: EXTERNAL }, 400, 'VALIDATION_ERROR'],
      [{ asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '1.5' }, 400, 'VALIDATION_ERROR'],
      [{ asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '0' }, 400, 'VALIDATION_ERROR'],
      [
        { walletId: 'nope', asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '1' },
        404,
        'RESOURCE_NOT_FOUND',
      ],
      [{ asset: 'BTC', toAddress: EXTERNAL, amountAtomic: '1' }, 422, 'UNSUPPORTED_ASSET'],
      [{ asset: 'TRX', toAddress: BAD_CHECKSUM, amountAtomic: '1' }, 422, 'INVALID_ADDRESS'],
      [{ asset: 'TRX', toAddress: wallet.address, amountAtomic: '1' }, 422, 'INVALID_ADDRESS'],
      [
        {
          asset: 'TRX',
          toAddress: EXTERNAL,
          amountAtomic: '1',
          chainParams: { feeLimitAtomic: '5000000' },
        },
        422,
        'INVALID_FEE_LIMIT',
      ],
      [
        {
          asset: 'USDT',
          toAddress: EXTERNAL,
          amountAtomic: '1',
          chainParams: { feeLimitAtomic: '999999' },
        },
        422,
        'INVALID_FEE_LIMIT',
      ],
      [
        {
          asset: 'USDT',
          toAddress: EXTERNAL,
          amountAtomic: '1',
          chainParams: { feeLimitAtomic: '15000000001' },
        },
        422,
        'INVALID_FEE_LIMIT',
      ],
      [
        { asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '999000000000' },
        422,
        'INSUFFICIENT_AVAILABLE_BALANCE',
      ],
    ];
    const before = snapshot();
    for (const [body, status, code] of cases) {
      const response = await withdraw(body);
      expect({
        body,
        status: response.status,
        code: (response.body as { code: string }).code,
      }).toEqual({
        body,
        status,
        code,
      });
      expect(response.body).toMatchObject({ retryable: false, requestId: expect.any(String) });
    }
    const usdtOnly = second;
    await fund(harness, client, usdtOnly.id, 'USDT', '1000000');
    const middle = snapshot();
    const noFee = await client.post(
      '/api/v1/transactions',
      { walletId: usdtOnly.id, asset: 'USDT', toAddress: EXTERNAL, amountAtomic: '1000' },
      newKey(),
    );
    expect(noFee.status).toBe(422);
    expect(noFee.body).toMatchObject({ code: 'INSUFFICIENT_AVAILABLE_BALANCE' });
    expect(snapshot()).toEqual(middle);
    expect(middle.transactions).toBe(before.transactions + 1); // only the funding deposit
    expect(ledgerProblems(harness)).toEqual([]);
  });

  it('answers WITHDRAWALS_BLOCKED, UPSTREAM_UNAVAILABLE and CLIENT_REFERENCE_CONFLICT', async () => {
    const body = { asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '1000000' };
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      withdrawalsBlocked: true,
    });
    const before = snapshot();
    const blocked = await withdraw(body);
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({ code: 'WITHDRAWALS_BLOCKED', retryable: false });
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      withdrawalsBlocked: null,
    });

    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/co-signer`, { online: false });
    const offline = await withdraw(body);
    expect(offline.status).toBe(503);
    expect(offline.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryable: true });
    expect(snapshot()).toEqual(before);
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/co-signer`, { online: true });

    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      upstreamUnavailableRate: 1,
    });
    const unavailable = await withdraw(body);
    expect(unavailable.status).toBe(503);
    expect(unavailable.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryable: true });
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      upstreamUnavailableRate: null,
    });
    expect(snapshot()).toEqual(before);

    const reference = newKey('ref');
    const first = await withdraw({ ...body, clientReference: reference });
    expect(first.status).toBe(201);
    const afterFirst = snapshot();
    const duplicate = await withdraw({ ...body, clientReference: reference });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'CLIENT_REFERENCE_CONFLICT' });
    expect(snapshot().transactions).toBe(afterFirst.transactions);
    const listed = await client.get(
      `/api/v1/transactions?clientReference=${encodeURIComponent(reference)}`,
    );
    expect((listed.body as { items: Transaction[] }).items.map((t) => t.id)).toEqual([
      (first.body as Transaction).id,
    ]);
    await waitForStatus(client, (first.body as Transaction).id, 'CONFIRMED');
    expect(ledgerProblems(harness)).toEqual([]);
  });

  it('answers UNSUPPORTED_ASSET and UNSUPPORTED_CHAIN when the org has them disabled', async () => {
    const other = await createOrgClient(harness);
    await makeReady(harness, other);
    const otherWallet = await createWallet(other, 'tron:mainnet');
    const db = harness.sandbox.ctx.db;
    const body = { walletId: otherWallet.id, toAddress: EXTERNAL, amountAtomic: '1' };
    setAssetEnabled(db, other.orgId, 'USDT', 'tron:mainnet', false);
    const asset = await other.post('/api/v1/transactions', { ...body, asset: 'USDT' }, newKey());
    expect([asset.status, (asset.body as { code: string }).code]).toEqual([
      422,
      'UNSUPPORTED_ASSET',
    ]);
    setAssetEnabled(db, other.orgId, 'TRX', 'tron:mainnet', false);
    const chain = await other.post('/api/v1/transactions', { ...body, asset: 'TRX' }, newKey());
    expect([chain.status, (chain.body as { code: string }).code]).toEqual([
      422,
      'UNSUPPORTED_CHAIN',
    ]);
    expect(events(harness, other.orgId).filter((e) => e.type.startsWith('transaction.'))).toEqual(
      [],
    );
  });

  it('requires an idempotency key and the withdrawals:create scope', async () => {
    const body = { walletId: wallet.id, asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '1' };
    const missing = await client.call('POST', '/api/v1/transactions', body);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED' });
    const reader = await createOrgClient(harness, ['transactions:read']);
    const forbidden = await reader.post('/api/v1/transactions', body, newKey());
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('replays one idempotency key as one transaction and refuses a changed body', async () => {
    const key = newKey('idem');
    const body = { asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '2000000' };
    const first = await withdraw(body, key);
    const again = await withdraw(body, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const changed = await withdraw({ ...body, amountAtomic: '3000000' }, key);
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    const id = (first.body as Transaction).id;
    const count = harness.sandbox.ctx.db
      .prepare<[string], { n: number }>(
        'SELECT COUNT(*) AS n FROM transactions WHERE idempotency_key = ?',
      )
      .get(key);
    expect(count?.n).toBe(1);
    expect(eventsOf(id).filter((e) => e.type === 'transaction.created')).toHaveLength(1);
    await waitForStatus(client, id, 'CONFIRMED');

    const parallelKey = newKey('parallel');
    const parallel = await Promise.all(
      Array.from({ length: 6 }, () => withdraw({ ...body, amountAtomic: '1500000' }, parallelKey)),
    );
    expect(new Set(parallel.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(parallel.map((r) => JSON.stringify(r.body))).size).toBe(1);
    const parallelCount = harness.sandbox.ctx.db
      .prepare<[string], { n: number }>(
        'SELECT COUNT(*) AS n FROM transactions WHERE idempotency_key = ?',
      )
      .get(parallelKey);
    expect(parallelCount?.n).toBe(1);
    await waitForStatus(client, (parallel[0]?.body as Transaction).id, 'CONFIRMED');
    expect(ledgerProblems(harness)).toEqual([]);
  });

  it('never overdraws under a burst of parallel withdrawals', async () => {
    const burstWallet = await createWallet(client, 'tron:nile', 'Burst');
    await fund(harness, client, burstWallet.id, 'TRX', '100000000'); // 100 TRX
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        client.post(
          '/api/v1/transactions',
          { walletId: burstWallet.id, asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '10000000' },
          newKey('burst'),
        ),
      ),
    );
    const accepted = responses.filter((r) => r.status === 201);
    const rejected = responses.filter((r) => r.status === 422);
    expect(accepted).toHaveLength(9); // 9 x 11.1 TRX = 99.9 TRX
    expect(rejected).toHaveLength(11);
    const held = await balances(client, burstWallet.id);
    expect(held.get('TRX')).toMatchObject({
      availableBalance: '100000',
      reservedBalance: '99900000',
      postedBalance: '100000000',
    });
    await Promise.all(
      accepted.map((r) => waitForStatus(client, (r.body as Transaction).id, 'CONFIRMED')),
    );
    expect((await balances(client, burstWallet.id)).get('TRX')?.postedBalance).toBe('100000');
    expect(ledgerProblems(harness)).toEqual([]);
  });
});

describe('forced outcomes', () => {
  it('FAILED voids the reservation once; FAILED_ON_CHAIN consumes the fee only; the switch is consumed', async () => {
    const before = await balances(client, wallet.id);
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      nextTransactionOutcome: 'FAILED',
    });
    const failed = await withdraw({ asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '5000000' });
    expect(failed.status).toBe(201);
    const faults = await harness.admin('GET', `/sandbox/orgs/${client.orgId}/faults`);
    expect(faults.body).toMatchObject({ nextTransactionOutcome: null });
    const failedId = (failed.body as Transaction).id;
    const done = await waitForStatus(client, failedId, 'FAILED');
    expect(done.failureCode).toBe('BROADCAST_REJECTED');
    expect(done.onChainDetails).toBeNull();
    expect((await balances(client, wallet.id)).get('TRX')).toEqual(before.get('TRX'));
    const releases = harness.sandbox.ctx.db
      .prepare<[string], { n: number }>(
        "SELECT COUNT(*) AS n FROM ledger_entries WHERE transaction_id = ? AND kind = 'RELEASE'",
      )
      .get(failedId);
    expect(releases?.n).toBe(1);
    expect(
      eventsOf(failedId)
        .map((e) => e.type)
        .filter((t) => t !== 'transaction.updated'),
    ).toEqual(['transaction.created', 'transaction.failed']);
    expect(eventsOf(failedId).at(-1)?.data).toMatchObject({
      status: 'FAILED',
      failureCode: 'BROADCAST_REJECTED',
    });

    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      nextTransactionOutcome: 'FAILED_ON_CHAIN',
    });
    const reverted = await withdraw({
      asset: 'USDT',
      toAddress: EXTERNAL,
      amountAtomic: '7000000',
      chainParams: { feeLimitAtomic: '10000000' },
    });
    const revertedTx = await waitForStatus(
      client,
      (reverted.body as Transaction).id,
      'FAILED_ON_CHAIN',
    );
    expect(revertedTx.onChainDetails?.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(revertedTx.networkFeeSummary?.actualFeeAtomic).toBe('10000000');
    const after = await balances(client, wallet.id);
    expect(after.get('USDT')).toEqual(before.get('USDT'));
    expect(BigInt(after.get('TRX')?.postedBalance ?? '')).toBe(
      BigInt(before.get('TRX')?.postedBalance ?? '') - 10_000_000n,
    );
    expect(eventsOf(revertedTx.id).at(-1)?.type).toBe('transaction.failed_on_chain');

    const normal = await withdraw({ asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '1000000' });
    await waitForStatus(client, (normal.body as Transaction).id, 'CONFIRMED');
    expect(ledgerProblems(harness)).toEqual([]);
  });
});

describe('internal transfer', () => {
  it('creates paired legs that confirm together, and a failed source fails the destination', async () => {
    const beforeSource = await balances(client, wallet.id);
    const beforeDestination = await balances(client, second.id);
    const response = await withdraw({
      asset: 'TRX',
      toAddress: second.address,
      amountAtomic: '4000000',
    });
    expect(response.status).toBe(201);
    const source = response.body as Transaction;
    expect(source).toMatchObject({
      type: 'INTERNAL_TRANSFER',
      direction: 'DEBIT',
      transferKind: 'INTERNAL_TRANSFER',
    });
    expect(source.transactionGroupId).toEqual(expect.any(String));
    const destinationId = source.counterpartTransactionId ?? '';
    const destination = await getTransaction(client, destinationId);
    expect(destination).toMatchObject({
      walletId: second.id,
      account: { id: second.accountId, name: 'Merchant' },
      type: 'INTERNAL_TRANSFER',
      status: 'PENDING',
      direction: 'CREDIT',
      signedAmountAtomic: '4000000',
      transactionGroupId: source.transactionGroupId,
      counterpartTransactionId: source.id,
    });
    await waitForStatus(client, source.id, 'CONFIRMED');
    const credited = await getTransaction(client, destinationId);
    expect(credited.status).toBe('CONFIRMED');
    expect(credited.balanceEffects).toEqual([
      expect.objectContaining({ walletId: second.id, kind: 'POST', postedDeltaAtomic: '4000000' }),
    ]);
    const delta = (after: Map<string, { postedBalance: string }>, before: typeof after) =>
      BigInt(after.get('TRX')?.postedBalance ?? '') -
      BigInt(before.get('TRX')?.postedBalance ?? '');
    expect(delta(await balances(client, wallet.id), beforeSource)).toBe(-4_000_000n - TRX_FEE);
    expect(delta(await balances(client, second.id), beforeDestination)).toBe(4_000_000n);
    const terminal = eventsOf(source.id).at(-1);
    expect(terminal?.type).toBe('transaction.confirmed');
    expect(terminal?.data).toMatchObject({
      isInternalTransfer: true,
      sourceTransactionId: source.id,
      destinationTransactionId: destinationId,
      destinationWalletId: second.id,
      sourceStatus: 'CONFIRMED',
      destinationStatus: 'CONFIRMED',
    });

    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      nextTransactionOutcome: 'FAILED',
    });
    const failing = await withdraw({
      asset: 'TRX',
      toAddress: second.address,
      amountAtomic: '1000000',
    });
    const failedSource = await waitForStatus(client, (failing.body as Transaction).id, 'FAILED');
    const failedDestination = await getTransaction(
      client,
      failedSource.counterpartTransactionId ?? '',
    );
    expect(failedDestination.status).toBe('FAILED');
    expect(eventsOf(failedSource.id).at(-1)?.data).toMatchObject({
      sourceStatus: 'FAILED',
      destinationStatus: 'FAILED',
    });
    expect(ledgerProblems(harness)).toEqual([]);
  });
});

describe('GET /api/v1/transactions', () => {
  it('filters, pages with a bound cursor, and agrees with the detail', async () => {
    const all = await client.get('/api/v1/transactions?limit=200');
    expect(all.status).toBe(200);
    const items = (all.body as { items: Transaction[] }).items;
    expect(items.length).toBeGreaterThan(10);
    for (const item of items.slice(0, 5)) {
      expect(await getTransaction(client, item.id)).toEqual(item);
    }
    const firstPage = await client.get(`/api/v1/transactions?walletId=${wallet.id}&limit=3`);
    const page = firstPage.body as { items: Transaction[]; nextCursor: string | null };
    expect(page.items).toHaveLength(3);
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await client.get(
      `/api/v1/transactions?walletId=${wallet.id}&limit=3&cursor=${encodeURIComponent(page.nextCursor ?? '')}`,
    );
    const nextItems = (next.body as { items: Transaction[] }).items;
    expect(nextItems.length).toBeGreaterThan(0);
    expect(nextItems.some((t) => page.items.some((p) => p.id === t.id))).toBe(false);
    const mismatched = await client.get(
      `/api/v1/transactions?walletId=${second.id}&limit=3&cursor=${encodeURIComponent(page.nextCursor ?? '')}`,
    );
    expect(mismatched.status).toBe(400);
    expect(mismatched.body).toMatchObject({ code: 'INVALID_QUERY_PARAMETER' });

    const deposits = await client.get(
      '/api/v1/transactions?type=DEPOSIT&status=CONFIRMED&asset=USDT&chain=tron:nile',
    );
    const depositItems = (deposits.body as { items: Transaction[] }).items;
    expect(depositItems.length).toBeGreaterThan(0);
    expect(depositItems.every((t) => t.type === 'DEPOSIT' && t.asset === 'USDT')).toBe(true);
    const ofAccount = await client.get(`/api/v1/transactions?accountId=${second.accountId}`);
    expect(
      (ofAccount.body as { items: Transaction[] }).items.every(
        (t) => t.account.id === second.accountId,
      ),
    ).toBe(true);
    const sub = await client.get(`/api/v1/ledger/accounts/${second.accountId}/transactions`);
    expect(sub.status).toBe(200);
    expect(sub.body).toEqual(ofAccount.body);
    const future = await client.get('/api/v1/transactions?createdFrom=2999-01-01T00:00:00Z');
    expect((future.body as { items: unknown[] }).items).toEqual([]);

    for (const bad of [
      'status=DONE',
      'type=REFUND',
      'chain=eth:mainnet',
      'limit=0',
      'limit=201',
      'createdFrom=yesterday',
      'createdFrom=2025-02-01T00:00:00Z&createdTo=2025-01-01T00:00:00Z',
      'cursor=garbage',
      'status=PENDING&status=FAILED',
    ]) {
      const response = await client.get(`/api/v1/transactions?${bad}`);
      expect([bad, response.status]).toEqual([bad, 400]);
      expect(response.body).toMatchObject({ code: 'INVALID_QUERY_PARAMETER' });
    }
    const other = await createOrgClient(harness);
    const foreign = await other.get(`/api/v1/transactions/${items[0]?.id ?? ''}`);
    expect(foreign.status).toBe(404);
    const foreignSub = await other.get(`/api/v1/ledger/accounts/${second.accountId}/transactions`);
    expect(foreignSub.status).toBe(404);
    expect(((await other.get('/api/v1/transactions')).body as { items: unknown[] }).items).toEqual(
      [],
    );
  });
});
