import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { PolicyDecision } from '@settlement/protocol';
import { migrate } from '../store/db';
import { createRequestStore, type NewRequest } from './request-store';

const HOUR = 3_600_000;

const decision: PolicyDecision = {
  action: 'REQUIRE_APPROVAL',
  rule: { id: 'r', name: 'R' },
  reasons: [],
  approvals: { count: 2, fromRoles: ['admin'] },
  limits: [],
  blockedByLimit: null,
  destination: { isAddressBook: false, isInternal: false },
  policyVersion: 1,
};

function setup() {
  const db = new Database(':memory:');
  migrate(db);
  let clock = 1_000_000;
  const store = createRequestStore(db, () => clock);
  const input = (operationId: string): NewRequest => ({
    operationId,
    requester: 'treasury',
    walletId: 'w1',
    accountId: 'a1',
    chain: 'tron:nile',
    asset: 'TRX',
    toAddress: 'T1',
    amountAtomic: '5',
    clientReference: null,
    body: new Uint8Array([123, 125]),
    decision,
    approvalsRequired: { count: 2, fromRoles: ['admin'] },
    expiresAt: clock + 24 * HOUR,
  });
  return {
    store,
    input,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('request store', () => {
  it('reaches APPROVED only on the quorum, and exactly one approval learns it was the last', () => {
    const { store, input } = setup();
    const { request } = store.create(input('op-1'));
    expect(store.approve(request.id, 'admin', 'admin')).toMatchObject({ isLast: false });
    expect(store.approve(request.id, 'admin', 'admin')).toMatchObject({
      kind: 'already-approved',
    });
    const last = store.approve(request.id, 'admin2', 'admin');
    expect(last).toMatchObject({ kind: 'approved', isLast: true });
    expect(store.get(request.id)?.status).toBe('APPROVED');
    expect(store.approve(request.id, 'admin3', 'admin')).toMatchObject({ kind: 'not-pending' });
    expect(store.markSubmitted(request.id, 'tx-1', null)).toBe(true);
    expect(store.markSubmitted(request.id, 'tx-2', null)).toBe(false);
    expect(store.get(request.id)?.transactionId).toBe('tx-1');
  });

  it('keeps one request per operation id', () => {
    const { store, input } = setup();
    const first = store.create(input('op-1'));
    const second = store.create(input('op-1'));
    expect(second).toEqual({ request: first.request, isNew: false });
  });

  it('expires requests awaiting approval at their expiry time (injected clock), not before', () => {
    const { store, input, advance } = setup();
    const { request } = store.create(input('op-1'));
    const other = store.create(input('op-2')).request;
    expect(store.cancel(other.id)).toBe(true);
    advance(24 * HOUR - 1);
    expect(store.expireDue()).toEqual([]);
    advance(1);
    expect(store.expireDue()).toEqual([request.id]);
    expect(store.get(request.id)?.status).toBe('EXPIRED');
    expect(store.get(other.id)?.status).toBe('CANCELLED');
    expect(store.approve(request.id, 'admin', 'admin')).toMatchObject({ kind: 'not-pending' });
  });
});
