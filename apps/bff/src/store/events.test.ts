import { describe, expect, it } from 'vitest';
import type { NormalizedEvent } from '@settlement/protocol';
import { storeEngines, type Engine } from '../test-support/engines';
import { createEventStore } from './events';

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

async function store(engine: Engine) {
  return createEventStore(await engine.open());
}

describe.each(storeEngines())('event store ($name)', (engine) => {
  it('stores each id once and keeps the original payload', async () => {
    const events = await store(engine);
    expect((await events.add(event('e1', null, 'mvp')))?.raw).toEqual({
      id: 'e1',
      data: { accountId: 'acc-e1', transactionId: 'tx-e1' },
    });
    expect(await events.add(event('e1', 1, 'topic'))).toBeNull();
    expect((await events.after(0, 10)).map((e) => [e.id, e.sequence])).toEqual([['e1', 1]]);
    expect((await events.search('corr-e1')).map((e) => e.id)).toEqual(['e1']);
    expect((await events.forTransactions(['tx-e1'])).map((e) => e.id)).toEqual(['e1']);
  });

  it('keeps only the indexes a query uses, and still finds an event by any of its keys', async () => {
    const sql = await engine.open();
    const indexes = await sql.all(
      engine.name === 'sqlite'
        ? "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql IS NOT NULL ORDER BY name"
        : "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'events' AND indexdef NOT LIKE '%UNIQUE%' ORDER BY indexname",
      [],
    );
    expect(indexes).toEqual([{ name: 'events_received_at' }, { name: 'events_transaction_id' }]);
    const events = createEventStore(sql);
    await events.add({
      ...event('e1', 1, 'topic'),
      data: { walletId: 'w-1', accountId: 'acc-1', transactionId: 'tx-1', txHash: 'h-1' },
    });
    for (const key of ['corr-e1', 'w-1', 'acc-1', 'tx-1', 'h-1']) {
      expect((await events.search(key)).map((e) => e.id)).toEqual(['e1']);
    }
    if (engine.name === 'sqlite') {
      const plan = await sql.all(
        'EXPLAIN QUERY PLAN SELECT * FROM events WHERE transaction_id IN (?) ORDER BY occurred_at, seq',
        ['tx-1'],
      );
      expect(JSON.stringify(plan)).toContain('events_transaction_id');
    }
  });

  it('stores a batch in one call: new rows in order, duplicates left out, each equal to its read-back', async () => {
    const events = await store(engine);
    await events.add(event('old', null, 'mvp'));
    const stored = await events.addMany([
      event('n1', 1, 'topic'),
      event('old', 2, 'topic'),
      event('n2', 3, 'topic'),
      event('n1', 1, 'topic'),
    ]);
    expect(stored.map((e) => e.id)).toEqual(['n1', 'n2']);
    const readBack = await events.after(0, 10);
    expect(readBack.map((e) => [e.id, e.sequence])).toEqual([
      ['old', 2],
      ['n1', 1],
      ['n2', 3],
    ]);
    expect(stored).toEqual(readBack.slice(1));
    expect(await events.resumePosition()).toBe('3');
  });

  it('resumes from the newest stored event: its sequence when known, else its id', async () => {
    const events = await store(engine);
    expect(await events.resumePosition()).toBeNull();
    await events.add(event('a', null, 'mvp'));
    expect(await events.resumePosition()).toBe('a');
    await events.add(event('a', 7, 'topic'));
    expect(await events.resumePosition()).toBe('7');
    await events.add(event('b', 8, 'topic'));
    expect(await events.resumePosition()).toBe('8');
    // The envelope switched back to MVP: the newer event's id wins over the old sequence.
    await events.add(event('c', null, 'mvp'));
    expect(await events.resumePosition()).toBe('c');
  });

  it('finds the local position of an id for browser replay', async () => {
    const events = await store(engine);
    for (const id of ['x', 'y', 'z']) await events.add(event(id, null, 'mvp'));
    const from = await events.seqOf('x');
    expect(from).not.toBeNull();
    expect((await events.after(from ?? 0, 10)).map((e) => e.id)).toEqual(['y', 'z']);
    expect(await events.seqOf('unknown')).toBeNull();
  });

  it("tells whether any event was received since a moment (the relay's `within` check)", async () => {
    let now = 1_000_000;
    const events = createEventStore(await engine.open(), () => now);
    expect(await events.hasReceivedSince(0)).toBe(false);
    await events.add(event('r1', null, 'mvp'));
    now += 5_000;
    expect(await events.hasReceivedSince(1_000_000)).toBe(true);
    expect(await events.hasReceivedSince(1_000_001)).toBe(false);
  });
});

describe.each(storeEngines())('event store shared by replicas ($name)', (engine) => {
  it('stores an event two writers add at once once, and hands it out by id and position', async () => {
    const sql = await engine.open();
    const one = createEventStore(sql);
    const two = createEventStore(sql);
    const batch = ['p1', 'p2', 'p3'].map((id) => event(id, null, 'mvp'));
    const [first, second] = await Promise.all([one.addMany(batch), two.addMany(batch)]);
    expect([...first, ...second].map((e) => e.id).sort()).toEqual(['p1', 'p2', 'p3']);
    const all = await one.after(0, 10);
    expect(all.map((e) => e.id)).toEqual(['p1', 'p2', 'p3']);
    const positions = all.map((e) => e.seq);
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    expect(await two.lastPosition()).toBe(positions.at(-1));
    expect((await two.byId('p2'))?.seq).toBe(positions[1]);
    expect(await two.byId('nope')).toBeNull();
    expect((await two.after(positions[0] ?? 0, 1)).map((e) => e.id)).toEqual(['p2']);
  });

  it('reports an empty store at position 0', async () => {
    expect(await createEventStore(await engine.open()).lastPosition()).toBe(0);
  });
});
