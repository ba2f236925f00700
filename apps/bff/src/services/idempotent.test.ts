import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@settlement/protocol/signing';
import {
  SIGNATURE_PATTERN,
  secretsOf,
  startBff,
  startSandbox,
  transcript,
  waitFor,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';
import { PENDING_LEASE_MS, clientReferenceFor, idempotencyKeyFor } from './idempotent';

const TO_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

type JournalRow = { state: string; idempotency_key: string; body: Buffer; status: number | null };
type LogRow = {
  operation: string;
  method: string;
  status: number | null;
  idempotency_key: string | null;
};

function journalRow(instance: BffInstance, operationId: string): JournalRow {
  return instance.db
    .prepare('SELECT state, idempotency_key, body, status FROM journal WHERE operation_id = ?')
    .get(operationId) as JournalRow;
}

async function requestLogOf(instance: BffInstance, operationId: string): Promise<LogRow[]> {
  await instance.bff.services.logs.flush();
  return instance.db
    .prepare(
      'SELECT operation, method, status, idempotency_key FROM request_log WHERE operation_id = ? ORDER BY id',
    )
    .all(operationId) as LogRow[];
}

/**
 * The sandbox process is infrastructure, like a database server, shared by the file; every
 * describe block gets its own BFF data dir and so its own organization, keys, journal and
 * logs on it (seedDemo creates a new org per data dir). Nothing a block does is seen by another.
 */
let sandbox: SandboxProcess;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20 });
}, 60_000);

afterAll(async () => {
  await sandbox.stop();
});

type Suite = {
  bff: BffInstance;
  admin: Browser;
  treasury: Browser;
  /** Instances before a restart (their logs are scanned for secrets too). */
  retired: BffInstance[];
  /** Where this block's part of the process-wide response transcript starts. */
  transcriptFrom: number;
};

/** A fresh BFF and organization for one describe block (its beforeAll/afterAll). */
function useSuite(): Suite {
  const suite = { retired: [] as BffInstance[] } as Suite;
  beforeAll(async () => {
    suite.transcriptFrom = transcript.length;
    suite.bff = await startBff({ sandbox });
    suite.admin = await suite.bff.login('admin');
    suite.treasury = await suite.bff.login('treasury');
  }, 60_000);
  afterAll(async () => {
    await suite.bff.close();
  });
  return suite;
}

async function restart(suite: Suite): Promise<void> {
  const { dataDir } = suite.bff;
  await suite.bff.close();
  suite.retired.push(suite.bff);
  suite.bff = await startBff({ sandbox, dataDir });
  suite.admin = await suite.bff.login('admin');
  suite.treasury = await suite.bff.login('treasury');
}

function expectNoSecrets(suite: Suite): void {
  const all = [...suite.retired, suite.bff];
  const secrets = all.flatMap(secretsOf);
  expect(secrets.length).toBeGreaterThan(0);
  for (const text of [
    ...transcript.slice(suite.transcriptFrom),
    ...all.flatMap((i) => i.logLines),
  ]) {
    for (const secret of secrets) expect(text.includes(secret)).toBe(false);
    expect(SIGNATURE_PATTERN.test(text)).toBe(false);
  }
}

/** Co-Signer online and the MPC key ACTIVE for tron:nile: what creating a wallet needs. */
async function initializeMpc(suite: Suite, operationId: string): Promise<void> {
  const online = await suite.bff.call('PUT', '/bff/sandbox/co-signer', {
    browser: suite.admin,
    body: { online: true },
  });
  expect(online.status).toBe(200);
  const started = await suite.bff.call('POST', '/bff/api/v1/mpc/initialize', {
    browser: suite.admin,
    headers: { 'x-operation-id': operationId },
  });
  expect(started.status).toBeLessThan(300);
  await waitForActiveMpc(suite);
}

async function waitForActiveMpc(suite: Suite): Promise<void> {
  await waitFor(async () => {
    const status = await suite.bff.call('GET', '/bff/api/v1/mpc/status', { browser: suite.admin });
    const body = status.json as { keyStatus: string; chains: { chain: string; ready: boolean }[] };
    return (
      body.keyStatus === 'ACTIVE' && body.chains.some((c) => c.chain === 'tron:nile' && c.ready)
    );
  });
}

async function createAccount(suite: Suite, name: string): Promise<string> {
  const account = await suite.bff.call('POST', '/bff/api/v1/ledger/accounts', {
    browser: suite.treasury,
    body: { name },
  });
  expect(account.status, account.text).toBe(201);
  return (account.json as { id: string }).id;
}

describe('MPC initialize', () => {
  const suite = useSuite();

  it('sends exactly {} under one durable key per organization across clicks and restarts', async () => {
    const online = await suite.bff.call('PUT', '/bff/sandbox/co-signer', {
      browser: suite.admin,
      body: { online: true },
    });
    expect(online.status).toBe(200);
    const first = await suite.bff.call('POST', '/bff/api/v1/mpc/initialize', {
      browser: suite.admin,
      headers: { 'x-operation-id': 'mpc-click-1' },
    });
    expect(first.status).toBeLessThan(300);
    const second = await suite.bff.call('POST', '/bff/api/v1/mpc/initialize', {
      browser: suite.admin,
      body: {},
      headers: { 'x-operation-id': 'mpc-click-2' },
    });
    expect(second.status).toBe(first.status);
    expect(second.json).toEqual(first.json);
    const a = journalRow(suite.bff, 'mpc-click-1');
    const b = journalRow(suite.bff, 'mpc-click-2');
    expect(a.body.toString('utf8')).toBe('{}');
    expect(b.idempotency_key).toBe(a.idempotency_key);
    expect((await requestLogOf(suite.bff, 'mpc-click-1'))[0]?.idempotency_key).toBe(
      a.idempotency_key,
    );

    await restart(suite);
    const third = await suite.bff.call('POST', '/bff/api/v1/mpc/initialize', {
      browser: suite.admin,
      headers: { 'x-operation-id': 'mpc-after-restart' },
    });
    expect(third.json).toEqual(first.json);
    expect(journalRow(suite.bff, 'mpc-after-restart').idempotency_key).toBe(a.idempotency_key);
    const audit = suite.bff.db
      .prepare("SELECT DISTINCT idempotency_key FROM audit_log WHERE action = 'mpc.initialize'")
      .all();
    expect(audit).toEqual([{ idempotency_key: a.idempotency_key }]);

    await waitForActiveMpc(suite);
  }, 30_000);

  it('never reveals seeds, passwords or signatures in a response body or log line', () => {
    expectNoSecrets(suite);
  });
});

describe('wallet creation journal', () => {
  const suite = useSuite();
  let accountId = '';

  beforeAll(async () => {
    await initializeMpc(suite, 'mpc-wallets');
    accountId = await createAccount(suite, 'Journal Co');
  }, 60_000);

  it('replays a completed operation without an upstream call and refuses a changed body', async () => {
    const body = { chain: 'tron:nile', accountId };
    const created = await suite.bff.call('POST', '/bff/api/v1/wallets', {
      browser: suite.treasury,
      body,
      headers: { 'x-operation-id': 'wallet-1' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.headers['x-operation-replayed']).toBe('false');
    const walletId = (created.json as { id: string }).id;
    expect(journalRow(suite.bff, 'wallet-1').idempotency_key).toBe(
      idempotencyKeyFor(suite.bff.credentials.orgId, 'wallet-1'),
    );

    const calls = await suite.bff.upstreamCalls();
    const replay = await suite.bff.call('POST', '/bff/api/v1/wallets', {
      browser: suite.treasury,
      body,
      headers: { 'x-operation-id': 'wallet-1' },
    });
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(created.text);
    expect(replay.headers['x-operation-replayed']).toBe('true');
    expect(replay.headers['x-request-id']).toBe(created.headers['x-request-id']);

    const changed = await suite.bff.call('POST', '/bff/api/v1/wallets', {
      browser: suite.treasury,
      body: { chain: 'tron:mainnet', accountId },
      headers: { 'x-operation-id': 'wallet-1' },
    });
    expect(changed.status).toBe(409);
    expect(changed.json).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', retryable: false });
    expect(await suite.bff.upstreamCalls()).toBe(calls);

    const operation = await suite.bff.call('GET', '/bff/operations/wallet-1', {
      browser: suite.treasury,
    });
    expect(operation.json).toMatchObject({
      operationId: 'wallet-1',
      state: 'succeeded',
      status: 201,
      response: { id: walletId },
    });
    const audit = suite.bff.db
      .prepare(
        "SELECT outcome, idempotency_key, upstream_request_id, correlation_id, resource_id FROM audit_log WHERE action = 'wallet.create'",
      )
      .all();
    expect(audit).toEqual([
      {
        outcome: 'succeeded',
        idempotency_key: idempotencyKeyFor(suite.bff.credentials.orgId, 'wallet-1'),
        upstream_request_id: created.headers['x-request-id'],
        correlation_id: expect.any(String),
        resource_id: walletId,
      },
    ]);
  });

  it('answers a replay from the journal after a restart of the BFF', async () => {
    const before = (
      await suite.bff.call('POST', '/bff/api/v1/wallets', {
        browser: suite.treasury,
        body: { chain: 'tron:nile', accountId },
        headers: { 'x-operation-id': 'wallet-1' },
      })
    ).text;
    await restart(suite);
    const calls = await suite.bff.upstreamCalls();
    const after = await suite.bff.call('POST', '/bff/api/v1/wallets', {
      browser: suite.treasury,
      body: { chain: 'tron:nile', accountId },
      headers: { 'x-operation-id': 'wallet-1' },
    });
    expect(after.status).toBe(201);
    expect(after.text).toBe(before);
    expect(await suite.bff.upstreamCalls()).toBe(calls);
  });

  it('never reveals seeds, passwords or signatures in a response body or log line', () => {
    expectNoSecrets(suite);
  });
});

describe('withdrawals', () => {
  const suite = useSuite();
  let walletId = '';

  beforeAll(async () => {
    await initializeMpc(suite, 'mpc-withdrawals');
    const accountId = await createAccount(suite, 'Withdrawals Co');
    const wallet = await suite.bff.call('POST', '/bff/api/v1/wallets', {
      browser: suite.treasury,
      body: { chain: 'tron:nile', accountId },
      headers: { 'x-operation-id': 'wallet-withdrawals' },
    });
    expect(wallet.status, wallet.text).toBe(201);
    walletId = (wallet.json as { id: string }).id;
  }, 60_000);

  it('funds the wallet through the sandbox deposit tool', async () => {
    const deposit = await suite.bff.call('POST', '/bff/sandbox/deposits', {
      browser: suite.admin,
      body: { walletId, asset: 'TRX', amountAtomic: '500000000' },
    });
    expect(deposit.status, deposit.text).toBe(202);
    await waitFor(async () => {
      const balances = await suite.bff.call('GET', `/bff/api/v1/wallets/${walletId}/balances`, {
        browser: suite.treasury,
      });
      const items = (balances.json as { items: { asset: string; availableBalance: string }[] })
        .items;
      return items.some((b) => b.asset === 'TRX' && BigInt(b.availableBalance) >= 500_000_000n);
    }, 30_000);
  }, 40_000);

  it('retries a 503 with the same key, reports an unknown outcome, then completes with the same key and bytes', async () => {
    const faulty = await sandbox.control(
      'PUT',
      `/sandbox/orgs/${suite.bff.credentials.orgId}/faults`,
      {
        upstreamUnavailableRate: 1,
      },
    );
    expect(faulty.status).toBe(200);
    const body = { walletId, asset: 'TRX', toAddress: TO_ADDRESS, amountAtomic: '1000000' };
    const failed = await suite.bff.call('POST', '/bff/api/v1/transactions', {
      browser: suite.treasury,
      body,
      headers: { 'x-operation-id': 'withdraw-1' },
    });
    expect(failed.status).toBe(503);
    expect(failed.json).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      retryable: true,
      details: [{ outcome: 'unknown', operationId: 'withdraw-1' }],
    });
    const key = idempotencyKeyFor(suite.bff.credentials.orgId, 'withdraw-1');
    expect(await requestLogOf(suite.bff, 'withdraw-1')).toEqual([
      { operation: 'transactions.create', method: 'POST', status: 503, idempotency_key: key },
      { operation: 'transactions.create', method: 'POST', status: 503, idempotency_key: key },
      { operation: 'transactions.create', method: 'POST', status: 503, idempotency_key: key },
    ]);
    const unknown = await suite.bff.call('GET', '/bff/operations/withdraw-1', {
      browser: suite.treasury,
    });
    expect(unknown.json).toMatchObject({ state: 'unknown' });

    await sandbox.control('PUT', `/sandbox/orgs/${suite.bff.credentials.orgId}/faults`, {
      upstreamUnavailableRate: null,
    });
    const sentBefore = journalRow(suite.bff, 'withdraw-1').body.toString('utf8');
    const done = await suite.bff.call('POST', '/bff/api/v1/transactions', {
      browser: suite.treasury,
      body,
      headers: { 'x-operation-id': 'withdraw-1' },
    });
    expect(done.status, done.text).toBe(201);
    const reference = clientReferenceFor(suite.bff.credentials.orgId, 'withdraw-1');
    expect(done.json).toMatchObject({
      clientReference: reference,
      status: 'PENDING',
      amountAtomic: '1000000',
    });
    const row = journalRow(suite.bff, 'withdraw-1');
    expect(row.state).toBe('succeeded');
    expect(row.body.toString('utf8')).toBe(sentBefore);
    expect(sha256Hex(new Uint8Array(row.body))).toBe(
      sha256Hex(JSON.stringify({ ...body, clientReference: reference })),
    );
    const log = await requestLogOf(suite.bff, 'withdraw-1');
    expect(log.map((r) => [r.operation, r.status])).toEqual([
      ['transactions.create', 503],
      ['transactions.create', 503],
      ['transactions.create', 503],
      ['transactions.reconcile', 200],
      ['transactions.create', 201],
    ]);
    expect(log.filter((r) => r.method === 'POST').every((r) => r.idempotency_key === key)).toBe(
      true,
    );
  });

  it('reconciles an operation whose outcome was lost by clientReference, without sending it again', async () => {
    const body = {
      walletId,
      asset: 'TRX',
      toAddress: TO_ADDRESS,
      amountAtomic: '2000000',
      clientReference: 'invoice-77',
    };
    const created = await suite.bff.call('POST', '/bff/api/v1/transactions', {
      browser: suite.treasury,
      body,
      headers: { 'x-operation-id': 'withdraw-2' },
    });
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    // As if the BFF crashed after the upstream accepted it and before the outcome was written,
    // longer ago than a live sender's lease (a younger pending row is another replica's call).
    suite.bff.db
      .prepare(
        `UPDATE journal SET state = 'pending', status = NULL, response = NULL,
           updated_at = updated_at - ? WHERE operation_id = ?`,
      )
      .run(PENDING_LEASE_MS, 'withdraw-2');
    await restart(suite);
    const again = await suite.bff.call('POST', '/bff/api/v1/transactions', {
      browser: suite.treasury,
      body,
      headers: { 'x-operation-id': 'withdraw-2' },
    });
    expect(again.status).toBe(201);
    expect(again.json).toMatchObject({ id, clientReference: 'invoice-77' });
    expect(
      (await requestLogOf(suite.bff, 'withdraw-2')).map((r) => [r.operation, r.method]),
    ).toEqual([
      ['transactions.create', 'POST'],
      ['transactions.reconcile', 'GET'],
    ]);
    const list = await suite.bff.call(
      'GET',
      '/bff/api/v1/transactions?clientReference=invoice-77',
      {
        browser: suite.treasury,
      },
    );
    expect((list.json as { items: unknown[] }).items).toHaveLength(1);
    const audit = suite.bff.db
      .prepare(
        "SELECT outcome FROM audit_log WHERE action = 'transaction.create' AND operation_id = 'withdraw-2' ORDER BY id",
      )
      .all();
    expect(audit).toEqual([{ outcome: 'succeeded' }, { outcome: 'reconciled' }]);
  });

  it('records a domain refusal as failed and replays it', async () => {
    const body = { walletId, asset: 'TRX', toAddress: 'not-an-address', amountAtomic: '1' };
    const refused = await suite.bff.call('POST', '/bff/api/v1/transactions', {
      browser: suite.treasury,
      body,
      headers: { 'x-operation-id': 'withdraw-bad' },
    });
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({ code: 'INVALID_ADDRESS' });
    const calls = await suite.bff.upstreamCalls();
    const replay = await suite.bff.call('POST', '/bff/api/v1/transactions', {
      browser: suite.treasury,
      body,
      headers: { 'x-operation-id': 'withdraw-bad' },
    });
    expect(replay.text).toBe(refused.text);
    expect(await suite.bff.upstreamCalls()).toBe(calls);
    expect(
      (await suite.bff.call('GET', '/bff/operations/withdraw-bad', { browser: suite.treasury }))
        .json,
    ).toMatchObject({
      state: 'failed',
      status: 422,
    });
  });

  it('refuses a body that is not a JSON object without journaling it', async () => {
    const response = await suite.bff.call('POST', '/bff/api/v1/transactions', {
      browser: suite.treasury,
      rawBody: '[1,2]',
      headers: { 'x-operation-id': 'withdraw-array' },
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(
      (await suite.bff.call('GET', '/bff/operations/withdraw-array', { browser: suite.treasury }))
        .status,
    ).toBe(404);
  });

  it('never reveals seeds, passwords or signatures in a response body or log line', () => {
    expectNoSecrets(suite);
  });
});
