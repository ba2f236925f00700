import { describe, expect, it } from 'vitest';
import type { NormalizedEvent } from '@settlement/protocol';
import { storeEngines, type Engine } from '../test-support/engines';
import { explaining } from '../test-support/explaining';
import { createEventKeyIndexer, searchEvents } from './event-keys';
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

/** An event carrying each of the 14 keys a search finds it by, every one distinct. */
const KEYED = {
  id: 'k-id',
  correlationId: 'k-corr',
  data: {
    transactionId: 'k-tx',
    walletId: 'k-wallet',
    accountId: 'k-account',
    txHash: 'k-hash',
    clientReference: 'k-ref',
    sourceTransactionId: 'k-src',
    destinationTransactionId: 'k-dst',
    requestId: 'k-req',
    idempotencyKey: 'k-idem',
    toAddress: 'k-to',
    fromAddress: 'k-from',
    address: 'k-address',
    // Not keys: a number, and a string in a field search does not look at.
    amountAtomic: 777,
    status: 'k-status',
  },
};
const KEYS = [KEYED.id, KEYED.correlationId, ...Object.values(KEYED.data)].filter(
  (value): value is string => typeof value === 'string' && value !== 'k-status',
);

function keyed(id: string, occurredAt: string, data: Record<string, unknown>): NormalizedEvent {
  return { ...event(id, null, 'mvp'), occurredAt, data, raw: { id, data } };
}

describe.each(storeEngines())('event search through the key table ($name)', (engine) => {
  it('finds an event by each of its 14 keys before the indexer ran and after', async () => {
    const sql = await engine.open();
    const events = createEventStore(sql);
    const indexer = createEventKeyIndexer(sql);
    await events.add({
      ...keyed(KEYED.id, '2026-01-01T00:00:00.000Z', KEYED.data),
      correlationId: KEYED.correlationId,
    });
    await events.add(keyed('other', '2026-01-01T00:00:00.000Z', { requestId: 'k-other' }));
    expect(KEYS).toHaveLength(14);

    for (const key of KEYS) expect((await events.search(key)).map((e) => e.id)).toEqual(['k-id']);
    expect(await indexer.indexPending(100)).toBe(2);
    expect(await indexer.pending()).toBe(0);
    for (const key of KEYS) expect((await events.search(key)).map((e) => e.id)).toEqual(['k-id']);

    const [found] = await events.search('k-req');
    expect(found).toEqual(await events.byId('k-id'));
    for (const unknown of ['k-unknown', '777', 'k-status', '']) {
      expect(await events.search(unknown)).toEqual([]);
    }
  });

  it('finds events sharing a key on both sides of the watermark, ordered by when they occurred', async () => {
    const sql = await engine.open();
    const events = createEventStore(sql);
    const indexer = createEventKeyIndexer(sql);
    await events.add(keyed('indexed-late', '2026-01-03T00:00:00.000Z', { toAddress: 'T-shared' }));
    await events.add(keyed('indexed-early', '2026-01-01T00:00:00.000Z', { address: 'T-shared' }));
    expect(await indexer.indexPending(100)).toBe(2);
    await events.add(keyed('tail', '2026-01-02T00:00:00.000Z', { fromAddress: 'T-shared' }));
    await events.add(keyed('tail-late', '2026-01-03T00:00:00.000Z', { toAddress: 'T-shared' }));
    expect(await indexer.pending()).toBe(2);

    const order = ['indexed-early', 'tail', 'indexed-late', 'tail-late'];
    expect((await events.search('T-shared')).map((e) => e.id)).toEqual(order);
    await indexer.indexPending(1);
    expect((await events.search('T-shared')).map((e) => e.id)).toEqual(order);
  });

  it('prunes the keys of pruned events with them, and keeps the others', async () => {
    const sql = await engine.open();
    let now = 1_000;
    const events = createEventStore(sql, () => now);
    const indexer = createEventKeyIndexer(sql);
    await events.add(
      keyed('old', '2026-01-01T00:00:00.000Z', { requestId: 'req-old', address: 'T-both' }),
    );
    now = 5_000;
    await events.add(
      keyed('new', '2026-01-02T00:00:00.000Z', { requestId: 'req-new', address: 'T-both' }),
    );
    await indexer.indexPending(100);
    const keysOf = async (id: string) =>
      sql.all(
        'SELECT key FROM event_keys WHERE seq = (SELECT seq FROM events WHERE id = ?) ORDER BY key',
        [id],
      );
    expect(await keysOf('old')).toHaveLength(4);

    expect(await events.prune(2_000)).toBe(1);
    expect(
      await sql.all("SELECT key FROM event_keys WHERE key IN ('old', 'req-old', 'corr-old')"),
    ).toEqual([]);
    expect(await sql.all('SELECT key, seq FROM event_keys ORDER BY key')).toEqual(
      (await keysOf('new')).map((row) => ({ ...row, seq: expect.any(Number) })),
    );
    expect((await events.search('T-both')).map((e) => e.id)).toEqual(['new']);
  });

  it('reads the key table by its primary key and the unindexed tail by a seq range, never all events', async () => {
    const sql = await engine.open();
    // Enough rows that the PostgreSQL planner, with statistics, prefers an index to a scan.
    await sql.run(
      `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
       INSERT INTO events (id, type, occurred_at, org_id, transaction_id, data, raw, received_at)
       SELECT 'bulk-' || i, 't', '2026-01-01', 'org', 'tx-' || i, '{}', '{}', i FROM n`,
    );
    await createEventKeyIndexer(sql).indexPending(20_000);
    const events = createEventStore(sql);
    await events.add(keyed('tail', '2026-01-02T00:00:00.000Z', { requestId: 'req-tail' }));
    if (engine.name === 'postgres') await sql.run('ANALYZE');

    const plans: string[] = [];
    const planned = explaining(
      sql,
      (text) =>
        /^(SELECT \* FROM events WHERE seq IN|SELECT MAX\(seq \+ 0\)|DELETE FROM event_keys)|received_at < \? ORDER BY/.test(
          text,
        ),
      plans,
    );
    await searchEvents(planned, 'tx-5');
    await createEventStore(planned).prune(10);
    const [search = '', prunedUpTo = '', prunePage = '', pruneKeys = ''] = plans;
    expect(plans).toHaveLength(4);
    if (engine.name === 'sqlite') {
      expect(search).toContain('SEARCH event_keys USING PRIMARY KEY (key=? AND seq<?)');
      expect(search).toContain('SEARCH events USING INTEGER PRIMARY KEY (rowid>?)');
      expect(search).not.toMatch(/SCAN events/);
      expect(prunedUpTo).toContain('SEARCH events USING COVERING INDEX events_received_at');
      expect(prunePage).toContain('SEARCH events USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)');
      expect(pruneKeys).toContain('SEARCH event_keys USING PRIMARY KEY (key=? AND seq=?)');
      expect(pruneKeys).not.toMatch(/SCAN event_keys/);
    } else {
      expect(search).toMatch(/Index (Only )?Scan using event_keys_pkey on event_keys/);
      expect(search).toMatch(
        /Index Scan using events_pkey on events \w+ .*\n\s+Index Cond: \(seq > /,
      );
      expect(search).not.toMatch(/Seq Scan on events/);
      expect(prunedUpTo).toMatch(/Index \w* ?Scan (Backward )?using events_received_at/);
      expect(prunePage).toMatch(/Index Scan using events_pkey on events/);
      expect(pruneKeys).toMatch(/Index (Only )?Scan using event_keys_pkey on event_keys/);
      expect(pruneKeys).not.toMatch(/Seq Scan on event_keys/);
    }
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
