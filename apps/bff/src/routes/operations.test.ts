import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, OperationViewSchema } from '@settlement/protocol';
import {
  fundedWallet,
  startBff,
  startSandbox,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';

let sandbox: SandboxProcess;
let bff: BffInstance;
let admin: Browser;
let treasury: Browser;
let walletId = '';
const TO_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20 });
  bff = await startBff({ sandbox });
  admin = await bff.login('admin');
  treasury = await bff.login('treasury');
  ({ walletId } = await fundedWallet(bff, admin, treasury));
}, 60_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

async function faults(body: Record<string, unknown>): Promise<void> {
  const response = await sandbox.control(
    'PUT',
    `/sandbox/orgs/${bff.credentials.orgId}/faults`,
    body,
  );
  expect(response.status).toBe(200);
}

function withdraw(operationId: string, body: Record<string, unknown>) {
  return bff.call('POST', '/bff/api/v1/transactions', {
    browser: treasury,
    body,
    headers: { 'x-operation-id': operationId },
  });
}

function auditOf(operationId: string) {
  return bff.db
    .prepare(
      'SELECT operator, outcome, resource_id AS resourceId FROM audit_log WHERE operation_id = ? ORDER BY id',
    )
    .all(operationId);
}

async function transactionsByReference(reference: string): Promise<unknown[]> {
  const list = await bff.call(
    'GET',
    `/bff/api/v1/transactions?clientReference=${encodeURIComponent(reference)}`,
    { browser: treasury },
  );
  return (list.json as { items: unknown[] }).items;
}

describe('GET /bff/operations/:id', () => {
  it('lists every upstream attempt with the request id sent and the upstream request id', async () => {
    await faults({ upstreamUnavailableRate: 1 });
    try {
      const failed = await withdraw('op-view-1', {
        walletId,
        asset: 'TRX',
        toAddress: TO_ADDRESS,
        amountAtomic: '1000000',
        clientReference: 'ref-view-1',
      });
      expect(failed.status).toBe(503);
    } finally {
      await faults({ upstreamUnavailableRate: null });
    }
    const view = await bff.call('GET', '/bff/operations/op-view-1', { browser: treasury });
    const parsed = OperationViewSchema.parse(view.json);
    expect(parsed.state).toBe('unknown');
    expect(parsed.clientReference).toBe('ref-view-1');
    expect(parsed.attempts.map((a) => [a.operation, a.attempt, a.status])).toEqual([
      ['transactions.create', 1, 503],
      ['transactions.create', 2, 503],
      ['transactions.create', 3, 503],
    ]);
    for (const attempt of parsed.attempts) {
      expect(attempt.requestId).not.toBe('');
      expect(attempt.upstreamRequestId).toEqual(expect.any(String));
    }
  });
});

describe('POST /bff/operations/:id/abandon', () => {
  it('after a 503 storm, reconciles, abandons, audits, and never sends the operation again', async () => {
    await faults({ upstreamUnavailableRate: 1 });
    const body = {
      walletId,
      asset: 'TRX',
      toAddress: TO_ADDRESS,
      amountAtomic: '2000000',
      clientReference: 'ref-storm-1',
    };
    try {
      expect((await withdraw('op-storm-1', body)).status).toBe(503);
      // The storm still blocks sends; the reconciliation is a read, which it lets through.
      const abandoned = await bff.call('POST', '/bff/operations/op-storm-1/abandon', {
        browser: treasury,
      });
      expect(abandoned.status, abandoned.text).toBe(200);
      const view = OperationViewSchema.parse(abandoned.json);
      expect(view.state).toBe('abandoned');
      expect(view.attempts.at(-1)).toMatchObject({
        operation: 'transactions.reconcile',
        method: 'GET',
        status: 200,
      });
    } finally {
      await faults({ upstreamUnavailableRate: null });
    }
    expect(auditOf('op-storm-1')).toEqual([
      { operator: 'treasury', outcome: 'unknown', resourceId: null },
      { operator: 'treasury', outcome: 'abandoned', resourceId: null },
    ]);

    const calls = await bff.upstreamCalls();
    const again = await withdraw('op-storm-1', body);
    expect(again.status).toBe(409);
    expect(ErrorEnvelopeSchema.parse(again.json)).toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      retryable: false,
      details: [{ operationId: 'op-storm-1', state: 'abandoned' }],
    });
    expect(await bff.upstreamCalls()).toBe(calls);
    expect(await transactionsByReference('ref-storm-1')).toEqual([]);

    // Asking again answers the same state and audits nothing new.
    const repeat = await bff.call('POST', '/bff/operations/op-storm-1/abandon', {
      browser: treasury,
    });
    expect(OperationViewSchema.parse(repeat.json).state).toBe('abandoned');
    expect(auditOf('op-storm-1')).toHaveLength(2);
  });

  it('never abandons a withdrawal the upstream has: it is journaled as created instead', async () => {
    const created = await withdraw('op-reached-1', {
      walletId,
      asset: 'TRX',
      toAddress: TO_ADDRESS,
      amountAtomic: '3000000',
      clientReference: 'ref-reached-1',
    });
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    // As if every answer had been lost after the upstream created it.
    bff.db
      .prepare(
        "UPDATE journal SET state = 'unknown', status = 503, response = NULL WHERE operation_id = ?",
      )
      .run('op-reached-1');
    const response = await bff.call('POST', '/bff/operations/op-reached-1/abandon', {
      browser: admin,
    });
    expect(response.status).toBe(200);
    const view = OperationViewSchema.parse(response.json);
    expect(view.state).toBe('succeeded');
    expect(view.response).toMatchObject({ id, clientReference: 'ref-reached-1' });
    expect(auditOf('op-reached-1')).toEqual([
      { operator: 'treasury', outcome: 'succeeded', resourceId: id },
      { operator: 'treasury', outcome: 'reconciled', resourceId: id },
    ]);
    expect(await transactionsByReference('ref-reached-1')).toHaveLength(1);
  });

  it('answers a settled operation as it is, and refuses what cannot be abandoned', async () => {
    const settled = await bff.call('POST', '/bff/operations/op-reached-1/abandon', {
      browser: treasury,
    });
    expect(OperationViewSchema.parse(settled.json).state).toBe('succeeded');

    const missing = await bff.call('POST', '/bff/operations/op-nothing/abandon', {
      browser: treasury,
    });
    expect(missing.status).toBe(404);
    expect(ErrorEnvelopeSchema.parse(missing.json).code).toBe('RESOURCE_NOT_FOUND');

    const support = await bff.login('support');
    const forbidden = await bff.call('POST', '/bff/operations/op-storm-1/abandon', {
      browser: support,
    });
    expect(forbidden.status).toBe(403);

    const wallet = await bff.call('POST', '/bff/operations/setup-mpc/abandon', {
      browser: admin,
    });
    expect(wallet.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(wallet.json).message).toMatch(/Only a withdrawal/);

    const noCsrf = await bff.call('POST', '/bff/operations/op-storm-1/abandon', {
      browser: treasury,
      csrf: null,
    });
    expect(noCsrf.status).toBe(403);
  });
});
