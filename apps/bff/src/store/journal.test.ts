import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from './db';
import { createJournalStore } from './journal';

function open() {
  const db = new Database(':memory:');
  migrate(db);
  let clock = 1_000;
  const journal = createJournalStore(db, () => clock);
  const tick = () => (clock += 1);
  journal.begin({
    operationId: 'op-1',
    operator: 'treasury',
    operation: 'transactions.create',
    idempotencyKey: 'op-key',
    method: 'POST',
    path: '/api/v1/transactions',
    requestHash: 'hash',
    body: new Uint8Array([123, 125]),
    bodyHash: 'body-hash',
    clientReference: 'ref-1',
  });
  const lose = () => {
    tick();
    journal.finish('op-1', {
      state: 'unknown',
      status: 503,
      response: null,
      upstreamRequestId: 'up-1',
      correlationId: null,
    });
  };
  return { journal, tick, lose };
}

describe('journal abandon', () => {
  it('abandons an unknown outcome seen unchanged, and then never marks it pending again', () => {
    const { journal, tick, lose } = open();
    lose();
    const seen = journal.get('op-1');
    tick();
    expect(journal.abandon('op-1', seen?.updatedAt ?? 0)).toBe(true);
    expect(journal.get('op-1')?.state).toBe('abandoned');
    expect(journal.markPending('op-1')).toBe(false);
    expect(journal.get('op-1')?.state).toBe('abandoned');
  });

  it('refuses to abandon a row that changed since it was read (a retry got there first)', () => {
    const { journal, tick, lose } = open();
    lose();
    const seen = journal.get('op-1');
    tick();
    expect(journal.markPending('op-1')).toBe(true);
    expect(journal.abandon('op-1', seen?.updatedAt ?? 0)).toBe(false);
    lose();
    expect(journal.abandon('op-1', seen?.updatedAt ?? 0)).toBe(false);
    expect(journal.get('op-1')?.state).toBe('unknown');
  });

  it('never abandons a pending or settled operation', () => {
    const { journal } = open();
    const pending = journal.get('op-1');
    expect(journal.abandon('op-1', pending?.updatedAt ?? 0)).toBe(false);
    journal.finish('op-1', {
      state: 'succeeded',
      status: 201,
      response: new Uint8Array(),
      upstreamRequestId: null,
      correlationId: null,
    });
    expect(journal.abandon('op-1', journal.get('op-1')?.updatedAt ?? 0)).toBe(false);
    expect(journal.markPending('op-1')).toBe(false);
  });
});
