import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { NormalizedEvent } from '@settlement/protocol';
import { timeOrderedId } from '@settlement/protocol/ids';
import { openDb } from '@settlement/bff/store/db';
import { createEventHistory } from '@settlement/bff/store/event-history';
import {
  CATCH_UP_CHUNK,
  CATCH_UP_SETTLE_LOG_EVERY,
  createEventKeyIndexer,
} from '@settlement/bff/store/event-keys';
import { createEventStore } from '@settlement/bff/store/events';
import { createLogStore } from '@settlement/bff/store/logs';
import { median, percentile, type GroupRecorder } from '../lib/report';
import type { BenchContext } from '../run';

/**
 * Group 8, in process on the BFF's own SQLite store (the embedded default): support's event
 * search as stored events grow, through the key table once the indexer caught up, against the
 * same search before it did (every event read, as the search was without the table). And what
 * the indexer costs an event, in the chunks its schedule uses. And the Events page's filtered
 * history (a substring no index serves): one page, which reads a window of stored events,
 * against the same page reading every event as it did before windows. And support's look-up
 * in the request log by an operation id, at the log's default bound.
 */

const WALLETS = 200;
const ACCOUNTS = 50;
const DESTINATIONS = 1_000;
/** A transaction's events: created, updated, confirmed. */
const EVENTS_PER_TRANSACTION = 3;
const BATCH = 1_000;

const transactionIdOf = (n: number) =>
  `txn_${Math.floor(n / EVENTS_PER_TRANSACTION)
    .toString(16)
    .padStart(12, '0')}`;

/** The n-th event, shaped as the sandbox's transaction events are (7 search keys). */
function eventAt(n: number): NormalizedEvent {
  const transaction = Math.floor(n / EVENTS_PER_TRANSACTION);
  const data = {
    transactionId: transactionIdOf(n),
    orgId: 'org_bench',
    accountId: `acc_${n % ACCOUNTS}`,
    walletId: `wal_${n % WALLETS}`,
    chain: 'tron:nile',
    asset: 'TRX',
    amountAtomic: '1250000',
    fromAddress: `TFrom${(n % WALLETS).toString().padStart(29, '0')}`,
    toAddress: `TTo${(transaction % DESTINATIONS).toString().padStart(31, '0')}`,
    status: 'PENDING',
    requestId: `req_${transaction}`,
  };
  const id = timeOrderedId();
  return {
    kind: 'business',
    id,
    type: 'transaction.updated',
    version: 1,
    orgId: 'org_bench',
    occurredAt: new Date(1_780_000_000_000 + n).toISOString(),
    correlationId: randomUUID(),
    sequence: n,
    envelope: 'topic',
    data,
    raw: { op: 'event', id, sequence: n, subject: 'transaction.updated', data },
  };
}

type Point = {
  size: number;
  scanMs: number | null;
  uniqueP99: number | null;
  sharedP50: number | null;
  sharedP99: number | null;
  unknownP99: number | null;
  indexUsPerEvent: number | null;
  chunkP99: number | null;
  chunkMax: number | null;
  /** Chunks that held the event loop over 10 ms, of all chunks. */
  chunksOver10: number;
  chunkCount: number;
  /** The whole catch-up, wall time, with the log settled as the schedule does. */
  catchUpMs: number;
  /** The Events page's search for a text no event has: one windowed page, p99. */
  pageP99: number | null;
  /** The same page reading every stored event (no window), median. */
  pageUnboundedMs: number | null;
  /** Every windowed page from the newest to the oldest, one after the other. */
  pagesToOldestMs: number | null;
  pagesToOldest: number;
};

/** The Events page's request for a text that matches nothing: its worst case. */
const MISS = { q: 'no event holds this text' };

/** Every page of `MISS` from the newest to the oldest: how many, and their time in all. */
async function pagesToOldest(
  history: ReturnType<typeof createEventHistory>,
): Promise<{ ms: number; pages: number }> {
  const started = performance.now();
  let pages = 0;
  let before: number | null = null;
  do {
    const page = await history.page({ before, limit: 100, filter: MISS });
    pages += 1;
    before = page.nextBefore;
  } while (before !== null);
  return { ms: performance.now() - started, pages };
}

async function timesOf(repeats: number, fn: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < repeats; i += 1) {
    const started = performance.now();
    await fn();
    ms.push(performance.now() - started);
  }
  return ms;
}

async function measure(size: number, dir: string): Promise<Point> {
  const sql = openDb(join(dir, `search-${size}`, 'bff.db'));
  try {
    const store = createEventStore(sql);
    const indexer = createEventKeyIndexer(sql);
    for (let n = 0; n < size; n += BATCH) {
      await store.addMany(
        Array.from({ length: Math.min(BATCH, size - n) }, (_, i) => eventAt(n + i)),
      );
    }
    // Nothing indexed: the search reads every event, as it did before the key table.
    const scanMs = median(await timesOf(3, () => store.search(randomUUID())));

    const chunks: number[] = [];
    let indexed = 0;
    const catchUpFrom = performance.now();
    for (;;) {
      const started = performance.now();
      const read = await indexer.indexPending(CATCH_UP_CHUNK);
      if (read === 0) break;
      chunks.push(performance.now() - started);
      indexed += read;
      // As the schedule's catch-up does between chunks: the log settled (a checkpoint in the
      // worker, awaited) every so many chunks, else a turn of the event loop.
      if (chunks.length % CATCH_UP_SETTLE_LOG_EVERY === 0) {
        await sql.settleLog?.();
      } else {
        await new Promise<void>((resolve) => {
          setImmediate(resolve);
        });
      }
    }
    const catchUpMs = performance.now() - catchUpFrom;
    const indexMs = chunks.reduce((sum, ms) => sum + ms, 0);

    const unique = transactionIdOf(Math.floor(size / 2));
    if ((await store.search(unique)).length !== EVENTS_PER_TRANSACTION) {
      throw new Error(`the search did not find the ${EVENTS_PER_TRANSACTION} events of ${unique}`);
    }
    const repeats = 50;
    const windowed = createEventHistory(sql);
    const unbounded = createEventHistory(sql, { window: Number.MAX_SAFE_INTEGER });
    const missPage = (history: typeof windowed) => () =>
      history.page({ before: null, limit: 100, filter: MISS });
    const chain = await pagesToOldest(windowed);
    const shared = (ms: number[]) => ({ sharedP50: median(ms), sharedP99: percentile(ms, 99) });
    return {
      size,
      scanMs,
      uniqueP99: percentile(await timesOf(repeats, () => store.search(unique)), 99),
      // A wallet's events: size / 200 of them, the oldest 500 returned.
      ...shared(await timesOf(repeats, () => store.search('wal_7'))),
      unknownP99: percentile(await timesOf(repeats, () => store.search(randomUUID())), 99),
      indexUsPerEvent: indexed > 0 ? (indexMs * 1000) / indexed : null,
      chunkP99: percentile(chunks, 99),
      chunkMax: chunks.length > 0 ? Math.max(...chunks) : null,
      chunksOver10: chunks.filter((ms) => ms > 10).length,
      chunkCount: chunks.length,
      catchUpMs,
      pageP99: percentile(await timesOf(repeats, missPage(windowed)), 99),
      pageUnboundedMs: median(await timesOf(3, missPage(unbounded))),
      pagesToOldestMs: chain.ms,
      pagesToOldest: chain.pages,
    };
  } finally {
    await sql.close();
  }
}

/** The request log's default bound (LOG_MAX_ROWS, apps/bff/src/config.ts). */
const LOG_ROWS = 200_000;

/**
 * Support's look-up of one operation in the request log (its page and the support search ask
 * it): rows as the proxy writes them, reads without an operation id and one journaled write in
 * fifty. The reference is the same statement with the operation-id term kept off its index
 * (`+operation_id`), the plan it had before that index: every row read.
 */
async function measureLogLookup(rows: number, dir: string) {
  const sql = openDb(join(dir, 'request-log', 'bff.db'));
  try {
    await sql.run(
      `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO request_log (at, operator, operation, operation_id, method, path, attempt,
         status, duration_ms, request_id_sent, upstream_request_id, correlation_id,
         idempotency_key)
       SELECT i, 'treasury', 'accounts.list', CASE WHEN i % 50 = 0 THEN 'op-' || i END,
         'GET', '/api/v1/ledger/accounts?limit=20', 1, 200, 2, 'sent-' || i, 'up-' || i,
         'corr-' || i, CASE WHEN i % 50 = 0 THEN 'key-' || i END FROM n`,
      [rows],
    );
    const logs = createLogStore(sql, (error) => {
      throw error;
    });
    const operationId = `op-${Math.floor(rows / 100) * 50}`;
    if ((await logs.findRequests(operationId)).length !== 1) {
      throw new Error(`the look-up did not find ${operationId}`);
    }
    const unindexed = () =>
      sql.all(
        `SELECT * FROM request_log WHERE upstream_request_id = ? OR request_id_sent = ?
           OR correlation_id = ? OR idempotency_key = ? OR +operation_id = ?
         ORDER BY at, id LIMIT 200`,
        Array<string>(5).fill(operationId),
      );
    return {
      p99: percentile(await timesOf(50, () => logs.findRequests(operationId)), 99),
      unindexedMs: median(await timesOf(3, unindexed)),
    };
  } finally {
    await sql.close();
  }
}

export async function runSearch(ctx: BenchContext, rec: GroupRecorder): Promise<void> {
  const sizes = ctx.isQuick ? [10_000] : [10_000, 100_000, 1_000_000];
  const curve: Point[] = [];
  for (const size of sizes) curve.push(await measure(size, ctx.workDir));

  const fmt = (v: number | null, digits = 2) => (v === null ? 'n/a' : v.toFixed(digits));
  for (const p of curve) {
    const stored = p.size.toLocaleString('en-US');
    const walletEvents = p.size / WALLETS;
    rec.add({
      metric: `Support search p99, a transaction id (3 events), ${stored} events stored`,
      value: p.uniqueP99,
      unit: 'ms',
      reference: { name: 'reading every event (no key table), median', value: p.scanMs },
      note: `unknown key p99 ${fmt(p.unknownP99)} ms; a wallet's ${walletEvents.toLocaleString('en-US')} events (${Math.min(walletEvents, 500)} returned) p50 ${fmt(p.sharedP50)}, p99 ${fmt(p.sharedP99)} ms`,
    });
    rec.add({
      metric: `Key indexer per event, ${stored} events stored (chunks of ${CATCH_UP_CHUNK})`,
      value: p.indexUsPerEvent,
      unit: 'us',
      note: `on the event loop; chunk p99 ${fmt(p.chunkP99)} ms, max ${fmt(p.chunkMax)} ms, ${p.chunksOver10.toLocaleString('en-US')} of ${p.chunkCount.toLocaleString('en-US')} chunks over 10 ms (a chunk is one transaction; the event loop is free between chunks); the catch-up took ${(p.catchUpMs / 1000).toFixed(1)} s, its log settled every ${CATCH_UP_SETTLE_LOG_EVERY} chunks (a checkpoint in the worker, awaited)`,
    });
    rec.add({
      metric: `Events page, text no event holds: one page p99, ${stored} events stored`,
      value: p.pageP99,
      unit: 'ms',
      reference: {
        name: 'the page reading every event (no window), median',
        value: p.pageUnboundedMs,
      },
      note: `each page reads a window of 10,000 stored positions; all ${p.pagesToOldest.toLocaleString('en-US')} pages to the oldest, back to back, took ${fmt(p.pagesToOldestMs, 0)} ms in all (the console asks for each as its own request)`,
    });
  }
  const logRows = ctx.isQuick ? LOG_ROWS / 10 : LOG_ROWS;
  const lookup = await measureLogLookup(logRows, ctx.workDir);
  rec.add({
    metric: `Support look-up of an operation in the request log, p99, ${logRows.toLocaleString('en-US')} rows`,
    value: lookup.p99,
    unit: 'ms',
    reference: {
      name: 'without the operation-id index (every row read), median',
      value: lookup.unindexedMs,
    },
    note: "one OR over the five ids of a row, each term on its index; 200,000 rows is the log's default bound (LOG_MAX_ROWS)",
  });
  rec.note(
    'In the bench process, on the BFF store (SQLite, WAL, its checkpoint worker) with events filled in batches of 1,000. ' +
      'Each event has 7 search keys (its id, correlation id, transaction id, wallet, account, from and to address; request id per transaction). ' +
      'The reference is the same search before the indexer ran: it reads every event, as the search did without the key table. ' +
      'Searches run 50 times each once the indexer caught up; the indexer ran from an empty key table to the size shown.',
  );
  rec.chart({
    id: 'search-by-stored-events',
    title: "Support's event search as stored events grow",
    xLabel: 'stored events',
    yLabel: 'latency, ms',
    isLogX: true,
    series: [
      {
        name: 'a transaction p99',
        points: curve.map((p) => ({ x: p.size, y: p.uniqueP99 })),
      },
      {
        name: 'a wallet p99',
        points: curve.map((p) => ({ x: p.size, y: p.sharedP99 })),
      },
      {
        name: 'no key table',
        points: curve.map((p) => ({ x: p.size, y: p.scanMs })),
        isReference: true,
      },
    ],
  });
  rec.chart({
    id: 'events-page-filter-by-stored-events',
    title: "The Events page's text filter as stored events grow (a text no event holds)",
    xLabel: 'stored events',
    yLabel: 'one page, ms',
    isLogX: true,
    series: [
      { name: 'one windowed page p99', points: curve.map((p) => ({ x: p.size, y: p.pageP99 })) },
      {
        name: 'reading every event',
        points: curve.map((p) => ({ x: p.size, y: p.pageUnboundedMs })),
        isReference: true,
      },
    ],
  });
}
