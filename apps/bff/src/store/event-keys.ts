import type { Logger } from 'pino';
import { z } from 'zod';
import { jsonText, type Dialect, type Row, type Sql } from './sql';

/**
 * Support's event search matches a value against these columns of `events` and these fields of
 * its `data`. The key table, the search of the events it does not cover yet and the prune are
 * all built from this one list, so the indexed and the unindexed halves of a search agree.
 */
const KeyColumnsSchema = z.object({
  id: z.string(),
  correlation_id: z.string().nullable(),
  transaction_id: z.string().nullable(),
  wallet_id: z.string().nullable(),
  account_id: z.string().nullable(),
  tx_hash: z.string().nullable(),
  client_reference: z.string().nullable(),
});
const KEY_COLUMNS = KeyColumnsSchema.keyof().options;
const KEY_DATA_FIELDS = [
  'sourceTransactionId',
  'destinationTransactionId',
  'requestId',
  'idempotencyKey',
  'toAddress',
  'fromAddress',
  'address',
] as const;

/** How many times a search binds its value in the scan of the unindexed tail. */
const KEY_SOURCES = KEY_COLUMNS.length + KEY_DATA_FIELDS.length;

/**
 * Longer values are not keys: a PostgreSQL b-tree entry holds at most ~2.7 kB, and one value
 * it refuses would stop the indexer at that event for good. Support's routes accept 256.
 */
const MAX_KEY_LENGTH = 512;

const KeyRowSchema = KeyColumnsSchema.extend({ seq: z.number().int(), data: z.string() });
/** What the key extraction reads of events after a position (only the columns it needs). */
const READ_EVENTS_AFTER = `SELECT seq, ${KEY_COLUMNS.join(', ')}, data FROM events WHERE seq > ?`;
export type KeyRow = z.infer<typeof KeyRowSchema>;
const DataSchema = z.record(z.string(), z.unknown());

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A value is a key when it is a string of 1-512 characters either engine can store (PostgreSQL
 * refuses NUL and a lone surrogate in text and jsonb). Only strings: SQLite compares a number in
 * `data` unequal to the searched text.
 */
function isKey(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_KEY_LENGTH &&
    !value.includes('\u0000') &&
    !LONE_SURROGATE.test(value)
  );
}

/** The distinct values a search finds this event by. */
export function eventKeys(row: KeyRow): string[] {
  const keys = new Set<string>();
  for (const column of KEY_COLUMNS) {
    const value = row[column];
    if (isKey(value)) keys.add(value);
  }
  const parsed = DataSchema.safeParse(JSON.parse(row.data));
  if (parsed.success) {
    for (const field of KEY_DATA_FIELDS) {
      const value = parsed.data[field];
      if (isKey(value)) keys.add(value);
    }
  }
  return [...keys];
}

/** `[key, seq]` of every key of these events, sorted by key (neighbours share b-tree pages). */
function keyPairs(rows: readonly KeyRow[]): [string, number][] {
  return rows
    .flatMap((row) => eventKeys(row).map((key): [string, number] => [key, row.seq]))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * `data.<field> = ?` for a JSON string only, as the keys are. PostgreSQL's text of a field
 * (`->>`) turns 7 into '7', so there the field is compared as JSON.
 */
function dataFieldEquals(db: Sql, field: string): string {
  return db.dialect === 'postgres'
    ? `(data::jsonb -> '${field}') = to_jsonb(?::text)`
    : `${jsonText(db, 'data', field)} = ?`;
}

type Statements = { search: string; insertKeys: string; deleteKeys: string };

function statements(db: Sql): Statements {
  const tailMatch = [
    ...KEY_COLUMNS.map((column) => `${column} = ?`),
    ...KEY_DATA_FIELDS.map((field) => dataFieldEquals(db, field)),
  ].join(' OR ');
  // Pairs travel as one JSON array bound to one parameter: one statement shape (prepared once)
  // for any number of keys, and one round trip.
  const pairs =
    db.dialect === 'postgres'
      ? 'SELECT value ->> 0, (value ->> 1)::bigint FROM jsonb_array_elements(?::jsonb)'
      : "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)";
  return {
    // Indexed events through the key table's primary key, the tail through a seq range.
    search: `SELECT * FROM events WHERE seq IN (
        SELECT seq FROM event_keys WHERE key = ? AND seq <= ?
        UNION ALL
        SELECT seq FROM events WHERE seq > ? AND (${tailMatch})
      ) ORDER BY occurred_at, seq LIMIT 500`,
    // `WHERE true` keeps SQLite from reading ON CONFLICT as a join constraint.
    insertKeys: `INSERT INTO event_keys (key, seq) ${pairs} WHERE true ON CONFLICT DO NOTHING`,
    deleteKeys: `DELETE FROM event_keys WHERE (key, seq) IN (${pairs})`,
  };
}

const built = new Map<Dialect, Statements>();
function statementsOf(db: Sql): Statements {
  let done = built.get(db.dialect);
  if (done === undefined) {
    done = statements(db);
    built.set(db.dialect, done);
  }
  return done;
}

/**
 * PostgreSQL: one indexer at a time across replicas (the others skip their turn), and the prune
 * waits for it, so keys are never inserted for events a concurrent prune is deleting.
 */
const EVENT_KEYS_LOCK = 0x65766b79;

const SeqSchema = z.object({ seq: z.number().int() });
const CountSchema = z.object({ n: z.number().int() });
const NullableCountSchema = z.object({ n: z.number().int().nullable() });
const LockSchema = z.object({ locked: z.boolean() });

/** Every event at or below this position has all its keys in `event_keys`. */
async function watermark(db: Sql): Promise<number> {
  const row = await db.get('SELECT seq FROM event_keys_indexed WHERE id = 1');
  return row === undefined ? 0 : SeqSchema.parse(row).seq;
}

/**
 * Up to 500 events matching `q`, oldest first: the key table below the watermark, the events
 * after it read directly. The watermark is read first and only ever grows (and keys leave only
 * with their events), so an indexer committing in between costs a duplicate, never a miss.
 */
export async function searchEvents(db: Sql, q: string): Promise<Row[]> {
  if (!isKey(q)) return [];
  const indexed = await watermark(db);
  const tail = Array.from({ length: KEY_SOURCES }, () => q);
  return db.all(statementsOf(db).search, [q, indexed, indexed, ...tail]);
}

/**
 * `seq + 0`, not `seq`: given MAX(seq), SQLite walks the primary key down from the newest event
 * until one is old enough (all retained events); this reads only the pruned range of the
 * received_at index.
 */
const PRUNED_UP_TO = 'SELECT MAX(seq + 0) AS n FROM events WHERE received_at < ?';
const PRUNE_PAGE = 1_000;

/**
 * Retention, inside the prune's transaction: the keys of the events received before `before`.
 * Each event's keys are worked out again (the key table is ordered by key, so finding them by
 * seq would read all of it), a page of events at a time, from the oldest to the newest pruned.
 */
export async function pruneEventKeys(tx: Sql, before: number): Promise<void> {
  if (tx.dialect === 'postgres') await tx.all('SELECT pg_advisory_xact_lock(?)', [EVENT_KEYS_LOCK]);
  const newest = NullableCountSchema.parse(await tx.get(PRUNED_UP_TO, [before])).n;
  if (newest === null) return;
  const last = Math.min(newest, await watermark(tx));
  let after = 0;
  for (;;) {
    const rows = (
      await tx.all(`${READ_EVENTS_AFTER} AND seq <= ? AND received_at < ? ORDER BY seq LIMIT ?`, [
        after,
        last,
        before,
        PRUNE_PAGE,
      ])
    ).map((row) => KeyRowSchema.parse(row));
    const pairs = keyPairs(rows);
    if (pairs.length > 0) await tx.run(statementsOf(tx).deleteKeys, [JSON.stringify(pairs)]);
    const next = rows.at(-1);
    if (next === undefined || rows.length < PRUNE_PAGE) return;
    after = next.seq;
  }
}

export type EventKeyIndexer = {
  /**
   * Indexes up to `maxEvents` events after the watermark in one transaction; how many it read
   * (0: caught up, or another replica is indexing).
   */
  indexPending(maxEvents: number): Promise<number>;
  /** How many positions lie after the watermark (an upper bound on the unindexed events). */
  pending(): Promise<number>;
};

/**
 * Fills the key table from committed events, off the relay's commit. Positions commit in order
 * (event writers serialize, see EVENT_WRITE_LOCK in events.ts), so an event committed later
 * always lands after the watermark.
 */
export function createEventKeyIndexer(db: Sql): EventKeyIndexer {
  return {
    indexPending: (maxEvents) =>
      db.transaction(async (tx) => {
        if (tx.dialect === 'postgres') {
          const lock = await tx.get('SELECT pg_try_advisory_xact_lock(?) AS locked', [
            EVENT_KEYS_LOCK,
          ]);
          if (!LockSchema.parse(lock).locked) return 0;
        }
        const from = await watermark(tx);
        const rows = (
          await tx.all(`${READ_EVENTS_AFTER} ORDER BY seq LIMIT ?`, [from, maxEvents])
        ).map((row) => KeyRowSchema.parse(row));
        const last = rows.at(-1);
        if (last === undefined) return 0;
        const pairs = keyPairs(rows);
        if (pairs.length > 0) {
          await tx.run(statementsOf(tx).insertKeys, [JSON.stringify(pairs)]);
        }
        await tx.run('UPDATE event_keys_indexed SET seq = ? WHERE id = 1 AND seq < ?', [
          last.seq,
          last.seq,
        ]);
        return rows.length;
      }),
    async pending() {
      const row = await db.get(
        `SELECT COALESCE((SELECT MAX(seq) FROM events), 0) - seq AS n
         FROM event_keys_indexed WHERE id = 1`,
      );
      return row === undefined ? 0 : Math.max(0, CountSchema.parse(row).n);
    },
  };
}

type EventKeyIndexingOptions = {
  indexer: EventKeyIndexer;
  /** Whether the relay stored an event at or after this moment (ms). */
  hasReceivedSince: (at: number) => Promise<boolean>;
  logger: Logger;
  now?: () => number;
  /** How often it looks whether to index. */
  intervalMs?: number;
  /** How long the relay must have stored nothing before indexing starts. */
  quietMs?: number;
  /** Beyond this many unindexed positions it indexes while events stream (bounds the tail scan). */
  maxTail?: number;
  /**
   * Events per transaction, which holds the event loop and the relay's next commit back: 50
   * took ~4 ms (p50; 100 took ~7 ms) with a million events stored, on SQLite.
   */
  chunk?: number;
  /**
   * While events stream: at most this many indexed a check, so a stream up to this rate a
   * second keeps no tail for searches to read (a batch payout's events, for one).
   */
  busyPerCheck?: number;
  /**
   * Events per transaction while events stream: ~0.2 ms each with random keys (a chunk of 10
   * took ~0.9 ms, and an event arriving behind it waited that long).
   */
  busyChunk?: number;
  /**
   * While events stream, the longest a chunk waits for a lull (`relayed`) before it runs
   * anyway: a replica that relays nothing still indexes, ~20 chunks a second.
   */
  lullWaitMs?: number;
  /** Between chunks: lets the relay's commits and requests in (a macrotask, not a microtask). */
  yieldToLoop?: () => Promise<void>;
  /**
   * While catching up, after every `settleLogEvery` chunks: the store's log tidied off the event
   * loop (`Sql.settleLog`). Back-to-back chunks never let the WAL checkpoint worker finish, so
   * the WAL grew to the fallback checkpoint, ~50 ms inside a COMMIT on the event loop, ~700
   * times per million events (BENCHMARKS.md, group 8).
   */
  settleLog?: (() => Promise<void>) | undefined;
  settleLogEvery?: number;
};

/** Events per transaction while catching up (the schedule's default). */
export const CATCH_UP_CHUNK = 50;
/** Events per transaction while events stream (the schedule's default). */
export const BUSY_CHUNK = 2;
/** The longest a chunk waits for a lull while events stream (the schedule's default). */
export const BUSY_LULL_WAIT_MS = 50;
/**
 * Catch-up chunks between two log settles: 1,000 events, ~6,600 WAL pages at a million stored,
 * under the connection's 10,000-page fallback.
 */
export const CATCH_UP_SETTLE_LOG_EVERY = 20;

type EventKeyIndexing = {
  /**
   * This replica has just handed events to its browsers. The next event is then as far away
   * as it will be, so a chunk waiting for a lull runs now (after this turn of the event loop,
   * so after the frames written in it), instead of at a moment an event may be arriving.
   */
  relayed(): void;
  /** Catches up now, then checks every interval. */
  start(): void;
  /** No further checks; resolves once a chunk under way has committed. */
  stop(): Promise<void>;
};

const nextMacrotask = () =>
  new Promise<void>((resolve) => {
    setImmediate(resolve);
  });

/**
 * When the key table is filled: at start, whenever the relay has been quiet for a while, all of
 * it once the unindexed tail outgrows `maxTail`, and otherwise up to `busyPerCheck` events a
 * check, in smaller chunks, each right after the relay has handed events on, while events
 * stream. It works in chunks and gives the event loop back between them; a run started by quiet
 * stops as soon as events arrive again. Failures are logged and retried at the next check.
 */
export function createEventKeyIndexing(options: EventKeyIndexingOptions): EventKeyIndexing {
  const { indexer, hasReceivedSince, logger } = options;
  const now = options.now ?? Date.now;
  const quietMs = options.quietMs ?? 1_000;
  const maxTail = options.maxTail ?? 100_000;
  const chunk = options.chunk ?? CATCH_UP_CHUNK;
  const settleLogEvery = options.settleLogEvery ?? CATCH_UP_SETTLE_LOG_EVERY;
  const busyPerCheck = options.busyPerCheck ?? 200;
  const busyChunk = options.busyChunk ?? BUSY_CHUNK;
  const lullWaitMs = options.lullWaitMs ?? BUSY_LULL_WAIT_MS;
  const yieldToLoop = options.yieldToLoop ?? nextMacrotask;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let isStopped = false;
  /** Set while a busy chunk waits for a lull: lets it run. */
  let endWait: (() => void) | null = null;

  /** The next lull: just after a `relayed`, or `lullWaitMs` from now, whichever comes first. */
  const nextLull = () =>
    new Promise<void>((resolve) => {
      const fallback = setTimeout(() => {
        endWait = null;
        resolve();
      }, lullWaitMs);
      endWait = () => {
        clearTimeout(fallback);
        endWait = null;
        setImmediate(resolve);
      };
    });

  const isQuiet = async () => !(await hasReceivedSince(now() - quietMs));

  /** Indexes chunk after chunk until caught up, or until `keepGoing` says stop. */
  const catchUp = async (keepGoing: () => Promise<boolean>) => {
    let chunks = 0;
    while ((await indexer.indexPending(chunk)) === chunk) {
      chunks += 1;
      if (options.settleLog && chunks % settleLogEvery === 0) await options.settleLog();
      else await yieldToLoop();
      if (isStopped || !(await keepGoing())) return;
    }
  };

  const check = async (isStart: boolean) => {
    const tail = isStart ? Infinity : await indexer.pending();
    if (tail === 0) return;
    if (tail > maxTail) {
      await catchUp(() => Promise.resolve(true));
    } else if (await isQuiet()) {
      await catchUp(isQuiet);
    } else {
      // Busy: what arrived since the last check, up to the budget, in small chunks, each in
      // the lull after a delivery: at 1,000 events a second, chunks of 10 at the loop's own
      // pace held ~2% of events ~1 ms behind one (BENCHMARKS.md, group 3).
      let left = Math.min(tail, busyPerCheck);
      while (left > 0) {
        await nextLull();
        if (isStopped) return;
        const wanted = Math.min(busyChunk, left);
        // Fewer than asked: caught up (the tail is an upper bound), so no empty transaction.
        left = (await indexer.indexPending(wanted)) < wanted ? 0 : left - wanted;
      }
    }
  };

  const run = (isStart: boolean) => {
    if (running || isStopped) return;
    running = check(isStart)
      .catch((error: unknown) => {
        logger.error({ err: error }, 'event key indexing failed; trying again');
      })
      .finally(() => {
        running = null;
      });
  };

  return {
    relayed() {
      endWait?.();
    },
    start() {
      if (timer) return;
      isStopped = false;
      run(true);
      timer = setInterval(() => {
        run(false);
      }, options.intervalMs ?? 1_000);
      timer.unref();
    },
    async stop() {
      isStopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      endWait?.();
      await running;
    },
  };
}
