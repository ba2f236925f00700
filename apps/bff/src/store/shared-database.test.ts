import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  WithdrawalRequestCreatedSchema,
  WithdrawalRequestSchema,
  type PolicyDocument,
} from '@settlement/protocol';
import {
  fundedWallet,
  startBff,
  startSandbox,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';
import { usePostgres, type TestPostgres } from '../test-support/postgres';
import { createIdempotentExecutor, requestHashOf } from '../services/idempotent';
import { matchOperation } from '../services/operations';

/**
 * Two BFF replicas (in-process, each with its own pool, idempotency executor and approval
 * path) on one PostgreSQL database and one sandbox: what one replica stores, the other sees,
 * and the races the database must settle are raced across the two.
 */

const EXTERNAL = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

const POLICY: PolicyDocument = {
  rules: [
    {
      id: 'external',
      name: 'External',
      match: { destination: 'ANY' },
      action: 'REQUIRE_APPROVAL',
      approvals: { count: 1, fromRoles: ['admin'] },
    },
  ],
  limits: [],
  settings: { requestExpiryHours: 24 },
};

let sandbox: SandboxProcess;
let postgres: TestPostgres;
let a: BffInstance;
let b: BffInstance;
let onA: Record<'admin' | 'treasury', Browser>;
let onB: Record<'admin2' | 'treasury', Browser>;
let accountId: string;
let walletId: string;

beforeAll(async () => {
  [sandbox, postgres] = await Promise.all([startSandbox(), usePostgres()]);
  const databaseUrl = await postgres.createDatabase();
  a = await startBff({ sandbox, databaseUrl, policy: POLICY });
  // The same organization, keys and database: a second replica.
  b = await startBff({ sandbox, databaseUrl, dataDir: a.dataDir });
  onA = { admin: await a.login('admin'), treasury: await a.login('treasury') };
  onB = { admin2: await b.login('admin2'), treasury: await b.login('treasury') };
  ({ accountId, walletId } = await fundedWallet(a, onA.admin, onA.treasury));
}, 120_000);

afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await postgres.release();
  await sandbox.stop();
});

/** Upstream calls both replicas recorded for this operation id and method (shared log). */
async function upstreamCalls(operationId: string, method: string, path: string): Promise<number> {
  await Promise.all([a.bff.services.logs.flush(), b.bff.services.logs.flush()]);
  const row = await a.sql.get(
    'SELECT COUNT(*) AS n FROM request_log WHERE operation_id = ? AND method = ? AND path = ?',
    [operationId, method, path],
  );
  return z.object({ n: z.number() }).parse(row).n;
}

describe('two replicas on one PostgreSQL database', () => {
  it('takes a session signed in on one replica on the other, and ends it on both', async () => {
    const browser = await a.login('support');
    const onOther = await b.call('GET', '/bff/auth/me', { browser });
    expect(onOther.status).toBe(200);
    expect(onOther.json).toMatchObject({ operator: { username: 'support' } });
    const out = await b.call('POST', '/bff/auth/logout', { browser });
    expect(out.status).toBeLessThan(300);
    expect((await a.call('GET', '/bff/auth/me', { browser })).status).toBe(401);
  });

  it('sends the same idempotent operation, sent to both replicas at once, upstream once', async () => {
    const operationId = 'replicas-wallet-1';
    const send = (instance: BffInstance, browser: Browser) =>
      instance.call('POST', '/bff/api/v1/wallets', {
        browser,
        body: { chain: 'tron:nile', accountId },
        headers: { 'x-operation-id': operationId },
      });
    const answers = await Promise.all([
      send(a, onA.treasury),
      send(b, onB.treasury),
      send(a, onA.treasury),
      send(b, onB.treasury),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    const ids = new Set(answers.map((answer) => (answer.json as { id: string }).id));
    expect(ids.size).toBe(1);
    expect(await upstreamCalls(operationId, 'POST', '/api/v1/wallets')).toBe(1);
  });

  it('submits a withdrawal once when 20 final approvals race across both replicas', async () => {
    const operationId = 'replicas-withdrawal-1';
    const created = await a.call('POST', '/bff/api/v1/transactions', {
      browser: onA.treasury,
      body: { walletId, asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '3000000' },
      headers: { 'x-operation-id': operationId },
    });
    expect(created.status, created.text).toBe(202);
    const { id } = WithdrawalRequestCreatedSchema.parse(created.json).withdrawalRequest;

    const approvals = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? a.call('POST', `/bff/withdrawal-requests/${id}/approve`, { browser: onA.admin })
          : b.call('POST', `/bff/withdrawal-requests/${id}/approve`, { browser: onB.admin2 }),
      ),
    );
    // The approver who lost the race to the other admin is told the request moved on.
    for (const answer of approvals) expect([200, 409], answer.text).toContain(answer.status);
    expect(await upstreamCalls(operationId, 'POST', '/api/v1/transactions')).toBe(1);
    const request = WithdrawalRequestSchema.parse(
      (await b.call('GET', `/bff/withdrawal-requests/${id}`, { browser: onB.admin2 })).json,
    );
    expect(request.status).toBe('SUBMITTED');
    expect(request.transactionId).toMatch(/\S/);
    expect(request.approvals).toHaveLength(1);
  });

  it('answers "in progress" while another replica is sending, and its outcome once recorded', async () => {
    const operation = matchOperation('POST', '/api/v1/wallets');
    if (!operation) throw new Error('wallets.create is not in the allowlist');
    // Replica A has claimed both operations and is (as far as B can tell) calling upstream.
    const claim = (operationId: string) =>
      a.bff.services.journal.begin({
        operationId,
        operator: 'treasury',
        operation: operation.name,
        idempotencyKey: `key-${operationId}`,
        method: 'POST',
        path: '/api/v1/wallets',
        requestHash: requestHashOf('treasury', operation, new Uint8Array([123, 125])),
        body: new Uint8Array([123, 125]),
        bodyHash: 'body-hash',
        clientReference: null,
      });
    expect(await claim('replicas-in-flight-1')).toBe(true);
    expect(await claim('replicas-in-flight-2')).toBe(true);
    const onB = createIdempotentExecutor(b.bff.services, { inProgressWaitMs: 300 });
    const input = (operationId: string) => ({
      operator: 'treasury',
      operationId,
      operation,
      path: '/api/v1/wallets',
      consoleBody: new Uint8Array([123, 125]),
      requestId: `bff_${operationId}`,
    });

    await expect(onB.execute(input('replicas-in-flight-1'))).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      status: 409,
      details: [{ operationId: 'replicas-in-flight-1', state: 'pending' }],
    });

    const waiting = onB.execute(input('replicas-in-flight-2'));
    await a.bff.services.journal.finish('replicas-in-flight-2', {
      state: 'succeeded',
      status: 201,
      response: new TextEncoder().encode('{"id":"w-from-a"}'),
      upstreamRequestId: 'req-a',
      correlationId: null,
    });
    const answer = await waiting;
    expect(answer).toMatchObject({ status: 201, isReplay: true, requestId: 'req-a' });
    expect(await upstreamCalls('replicas-in-flight-1', 'POST', '/api/v1/wallets')).toBe(0);
    expect(await upstreamCalls('replicas-in-flight-2', 'POST', '/api/v1/wallets')).toBe(0);
  });
});
