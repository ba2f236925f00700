import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '../../../lib/api-client';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { Reply, TestServer } from '../../../test/test-server';
import { policyBlockedFixture, withdrawalRequestFixture } from '../../../test/governance-fixtures';
import { createTransaction } from './create-transaction';

const request = {
  walletId: 'wal_1',
  asset: 'TRX',
  toAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  amountAtomic: '8900000',
  clientReference: 'wd-op-1',
};
const transaction = {
  id: 'tx_1',
  walletId: 'wal_1',
  account: { id: 'acc_1', name: 'Treasury' },
  type: 'WITHDRAWAL',
  status: 'PENDING',
  chain: 'tron:nile',
  asset: 'TRX',
  amountAtomic: '8900000',
  onChainDetails: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

let server: TestServer;
let reply: () => Reply;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('POST', '/bff/api/v1/transactions', () => reply());
});
afterAll(() => server.close());

describe('createTransaction', () => {
  it('201: the withdrawal was sent', async () => {
    reply = () => ({ status: 201, body: transaction });
    const outcome = await createTransaction({ request, operationId: 'op-1' });
    expect(outcome).toMatchObject({ kind: 'created', transaction: { id: 'tx_1' } });
  });

  it('202: a withdrawal request awaiting approval, parsed whole', async () => {
    const held = withdrawalRequestFixture();
    reply = () => ({ status: 202, body: { withdrawalRequest: held } });
    const outcome = await createTransaction({ request, operationId: 'op-1' });
    expect(outcome).toEqual({ kind: 'awaiting-approval', request: held });
  });

  it('403 POLICY_BLOCKED: an ApiError carrying the rule in its details', async () => {
    const detail = policyBlockedFixture();
    reply = () => envelope('POLICY_BLOCKED', 403, 'req-blocked', [detail]);
    const error: unknown = await createTransaction({ request, operationId: 'op-1' }).catch(
      (e: unknown) => e,
    );
    expect(isApiError(error) && error.code).toBe('POLICY_BLOCKED');
    expect(isApiError(error) && error.details).toEqual([detail]);
  });

  it('a 202 whose request does not match the contract is not taken for success', async () => {
    reply = () => ({ status: 202, body: { withdrawalRequest: { id: 'wr_1' } } });
    const error: unknown = await createTransaction({ request, operationId: 'op-1' }).catch(
      (e: unknown) => e,
    );
    expect(isApiError(error) && error.code).toBe('INVALID_RESPONSE');
  });
});
