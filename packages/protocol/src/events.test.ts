import { describe, expect, it } from 'vitest';
import { BoundedIdSet, eventFamily, normalizeEvent, resourcePathsFor } from './events';

const txData = {
  transactionId: 'tx_1',
  transactionGroupId: null,
  sourceTransactionId: null,
  destinationTransactionId: null,
  orgId: 'org_1',
  accountId: 'acc_1',
  walletId: 'wal_1',
  destinationAccountId: null,
  destinationWalletId: null,
  chain: 'tron:nile',
  asset: 'TRX',
  amountAtomic: '1500000',
  amountDirection: 'DEBIT',
  isInternalTransfer: false,
  transferKind: 'EXTERNAL_WITHDRAWAL',
  fromAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  toAddress: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
  txHash: null,
  status: 'PENDING',
  sourceStatus: null,
  destinationStatus: null,
  failureCode: null,
  failureMessage: null,
};

const mvp = {
  type: 'EVENT',
  event: 'transaction.created',
  eventId: 'evt_1',
  version: 1,
  orgId: 'org_1',
  occurredAt: '2026-11-22T10:00:00.000Z',
  correlationId: 'corr_1',
  data: txData,
};

const topic = {
  op: 'event',
  subId: 'sub_1',
  id: 'evt_2',
  sequence: 7,
  subject: 'transaction.confirmed',
  occurredAt: '2026-11-22T10:00:05Z',
  orgId: 'org_1',
  correlationId: 'corr_1',
  version: 1,
  data: { ...txData, status: 'CONFIRMED', futureField: 'kept' },
};

describe('normalizeEvent', () => {
  it('normalizes the MVP envelope from a JSON string and keeps the original payload', () => {
    const result = normalizeEvent(JSON.stringify(mvp), { expectedOrgId: 'org_1' });
    expect(result).toMatchObject({
      ok: true,
      event: {
        kind: 'business',
        id: 'evt_1',
        type: 'transaction.created',
        version: 1,
        orgId: 'org_1',
        correlationId: 'corr_1',
        sequence: null,
        envelope: 'mvp',
        raw: mvp,
      },
    });
  });

  it('normalizes the topic envelope with its sequence and passes unknown fields through', () => {
    const result = normalizeEvent(topic);
    expect(result.ok && result.event.kind === 'business' && result.event.sequence).toBe(7);
    expect(result.ok && result.event.data['futureField']).toBe('kept');
    expect(result.ok && result.event.type).toBe('transaction.confirmed');
  });

  it('maps the legacy SYSTEM_CONNECTED name, bare or as an event name', () => {
    for (const raw of [
      { type: 'SYSTEM_CONNECTED' },
      { type: 'EVENT', event: 'SYSTEM_CONNECTED', orgId: 'org_1' },
      { op: 'event', subject: 'SYSTEM_CONNECTED' },
    ]) {
      const result = normalizeEvent(raw);
      expect(result.ok && result.event).toMatchObject({ kind: 'system', type: 'system.connected' });
    }
  });

  it('passes system.error through as a system event', () => {
    const result = normalizeEvent({ type: 'EVENT', event: 'system.error', data: { code: 'X' } });
    expect(result.ok && result.event).toMatchObject({
      kind: 'system',
      type: 'system.error',
      orgId: null,
    });
  });

  it('rejects another organization, and an event without orgId when one is expected', () => {
    expect(normalizeEvent(mvp, { expectedOrgId: 'org_2' })).toMatchObject({
      ok: false,
      reason: 'foreign-org',
    });
    const { orgId: _omit, ...withoutOrg } = mvp;
    expect(normalizeEvent(withoutOrg, { expectedOrgId: 'org_1' })).toMatchObject({ ok: false });
  });

  it('rejects frames that are not JSON, not an envelope, or miss required fields', () => {
    expect(normalizeEvent('{nope')).toMatchObject({ ok: false, reason: 'not-json' });
    expect(normalizeEvent(42)).toMatchObject({ ok: false, reason: 'unknown-envelope' });
    expect(normalizeEvent({ hello: 1 })).toMatchObject({ ok: false, reason: 'unknown-envelope' });
    expect(normalizeEvent({ type: 'OTHER' })).toMatchObject({
      ok: false,
      reason: 'invalid-envelope',
    });
    expect(normalizeEvent({ op: 'event' })).toMatchObject({
      ok: false,
      reason: 'invalid-envelope',
    });
    const { eventId: _omit, ...withoutId } = mvp;
    expect(normalizeEvent(withoutId)).toMatchObject({ ok: false, reason: 'invalid-envelope' });
  });

  it('rejects invalid data of a known kind with the failing fields named', () => {
    const bad = { ...mvp, data: { ...txData, amountAtomic: '1.5' } };
    const result = normalizeEvent(bad);
    expect(result).toMatchObject({ ok: false, reason: 'invalid-data' });
    expect(!result.ok && result.detail).toMatch(/amountAtomic/);
  });

  it('passes events of kinds this version does not know (additive evolution)', () => {
    const result = normalizeEvent({ ...mvp, event: 'payout.scheduled', data: { anything: true } });
    expect(result.ok && result.event.type).toBe('payout.scheduled');
  });
});

describe('BoundedIdSet', () => {
  it('reports duplicates and forgets the oldest id past its capacity', () => {
    const set = new BoundedIdSet(2);
    expect(set.addIfNew('a')).toBe(true);
    expect(set.addIfNew('a')).toBe(false);
    expect(set.addIfNew('b')).toBe(true);
    expect(set.addIfNew('c')).toBe(true);
    expect(set.size).toBe(2);
    expect(set.has('a')).toBe(false);
    expect(set.addIfNew('a')).toBe(true);
    expect(() => new BoundedIdSet(0)).toThrow(RangeError);
  });
});

describe('resourcePathsFor', () => {
  it('maps a transaction event to its detail, lists and the balances of both legs', () => {
    const paths = resourcePathsFor({
      type: 'transaction.confirmed',
      data: { ...txData, destinationWalletId: 'wal_2', destinationAccountId: 'acc_2' },
    });
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/transactions',
        '/api/v1/transactions/tx_1',
        '/api/v1/wallets/wal_1/balances',
        '/api/v1/ledger/accounts/acc_1/balances',
        '/api/v1/ledger/accounts/acc_1',
        '/api/v1/wallets/wal_2/balances',
        '/api/v1/ledger/accounts/acc_2/balances',
      ]),
    );
  });

  it('maps account, wallet and deposit events per the reconciliation table', () => {
    expect(resourcePathsFor({ type: 'account.created', data: { accountId: 'acc_1' } })).toEqual([
      '/api/v1/ledger/accounts',
      '/api/v1/ledger/accounts/acc_1',
    ]);
    expect(
      resourcePathsFor({ type: 'wallet.created', data: { walletId: 'wal_1', accountId: 'acc_1' } }),
    ).toEqual(
      expect.arrayContaining([
        '/api/v1/wallets',
        '/api/v1/wallets/wal_1',
        '/api/v1/ledger/accounts/acc_1/wallets',
      ]),
    );
    expect(
      resourcePathsFor({
        type: 'deposit.credited',
        data: { transactionId: 'tx_9', walletId: 'wal_1', accountId: 'acc_1' },
      }),
    ).toEqual(
      expect.arrayContaining(['/api/v1/transactions/tx_9', '/api/v1/wallets/wal_1/balances']),
    );
    expect(resourcePathsFor({ type: 'other.thing', data: {} })).toEqual([]);
    expect(eventFamily('deposit.observed')).toBe('deposit');
  });
});
