import { describe, expect, it } from 'vitest';
import type { NormalizedEvent } from '@settlement/protocol';
import { migrate } from './db';
import { createEventStore } from './events';
import Database from 'better-sqlite3';

function event(id: string, sequence: number | null, envelope: 'mvp' | 'topic'): NormalizedEvent {
  const data = { accountId: `acc-${id}`, transactionId: `tx-${id}` };
  return {
    kind: 'business',
    id,
    type: 'account.created',
    version: 1,
    orgId: 'org',
    occurredAt: '2026-01-01T00:00:00.000Z',
    correlationId: `corr-${id}`,
    sequence,
    envelope,
    data,
    raw: { id, data },
  };
}

function store() {
  const db = new Database(':memory:');
  migrate(db);
  return createEventStore(db);
}

describe('event store', () => {
  it('stores each id once and keeps the original payload', () => {
    const events = store();
    expect(events.add(event('e1', null, 'mvp'))?.raw).toEqual({
      id: 'e1',
      data: { accountId: 'acc-e1', transactionId: 'tx-e1' },
    });
    expect(events.add(event('e1', 1, 'topic'))).toBeNull();
    expect(events.after(0, 10).map((e) => [e.id, e.sequence])).toEqual([['e1', 1]]);
    expect(events.search('corr-e1').map((e) => e.id)).toEqual(['e1']);
    expect(events.forTransactions(['tx-e1']).map((e) => e.id)).toEqual(['e1']);
  });

  it('stores a batch in one call: new rows in order, duplicates left out, each equal to its read-back', () => {
    const events = store();
    events.add(event('old', null, 'mvp'));
    const stored = events.addMany([
      event('n1', 1, 'topic'),
      event('old', 2, 'topic'),
      event('n2', 3, 'topic'),
      event('n1', 1, 'topic'),
    ]);
    expect(stored.map((e) => e.id)).toEqual(['n1', 'n2']);
    const readBack = events.after(0, 10);
    expect(readBack.map((e) => [e.id, e.sequence])).toEqual([
      ['old', 2],
      ['n1', 1],
      ['n2', 3],
    ]);
    expect(stored).toEqual(readBack.slice(1));
    expect(events.resumePosition()).toBe('3');
  });

  it('resumes from the newest stored event: its sequence when known, else its id', () => {
    const events = store();
    expect(events.resumePosition()).toBeNull();
    events.add(event('a', null, 'mvp'));
    expect(events.resumePosition()).toBe('a');
    events.add(event('a', 7, 'topic'));
    expect(events.resumePosition()).toBe('7');
    events.add(event('b', 8, 'topic'));
    expect(events.resumePosition()).toBe('8');
    // The envelope switched back to MVP: the newer event's id wins over the old sequence.
    events.add(event('c', null, 'mvp'));
    expect(events.resumePosition()).toBe('c');
  });

  it('finds the local position of an id for browser replay', () => {
    const events = store();
    for (const id of ['x', 'y', 'z']) events.add(event(id, null, 'mvp'));
    const from = events.seqOf('x');
    expect(from).not.toBeNull();
    expect(events.after(from ?? 0, 10).map((e) => e.id)).toEqual(['y', 'z']);
    expect(events.seqOf('unknown')).toBeNull();
  });
});
