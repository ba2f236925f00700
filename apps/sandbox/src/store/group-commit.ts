import type { Db } from './db';

/**
 * Group commit of the request path: the signed requests handled in one turn of the event loop
 * share ONE SQLite transaction. The first request that writes opens it (`join`, BEGIN
 * IMMEDIATE); every transaction a request then runs (`db.transaction`) nests in it as a
 * savepoint, so a refused request still rolls back its own writes only; the batch commits once,
 * in the check phase of the same loop turn (setImmediate), after every request parsed in that
 * turn ran. A profile of 1,500 withdrawals spent ~17% of the sandbox's CPU in BEGIN/COMMIT of
 * one transaction per request plus one autocommit per nonce (six commits per withdrawal).
 *
 * No response may leave before the batch it wrote into is durable: responses wait for
 * `committed()` (http/hold-responses.ts), and whatever publishes committed state (the event
 * stream's outbox poll) calls `flush()` first, so nothing uncommitted is ever delivered. A
 * request's nonce is written into the batch before its handler runs, so a refused request's
 * nonce commits with the batch and the same signed request is never accepted twice.
 */
export type GroupCommit = {
  /** Opens the batch unless one (or another transaction) is open; it commits this loop turn. */
  join(): void;
  isOpen(): boolean;
  /** Settles once what was written into the open batch is committed (now when none is open). */
  committed(): Promise<void>;
  /** Commits the open batch now (a no-op when none is open). */
  flush(): void;
};

type Batch = { done: Promise<void>; resolve: () => void; reject: (error: unknown) => void };

function newBatch(): Batch {
  let resolve: () => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const done = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  // Waiters attach their own handlers; a batch nobody waits on must not crash the process.
  done.catch(() => undefined);
  return { done, resolve, reject };
}

const COMMITTED = Promise.resolve();

export function createGroupCommit(
  db: Db,
  schedule: (run: () => void) => void = (run) => {
    setImmediate(run);
  },
): GroupCommit {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  let open: Batch | null = null;

  function flush(): void {
    const batch = open;
    if (batch === null) return;
    open = null;
    try {
      if (!db.open) throw new Error('the database closed before the batch committed');
      commit.run();
    } catch (error) {
      if (db.open && db.inTransaction) rollback.run();
      batch.reject(error);
      return;
    }
    batch.resolve();
  }

  return {
    join() {
      // SQLite itself rolled the batch back (an I/O error): its waiters fail, a new one opens.
      if (open !== null && !db.inTransaction) flush();
      if (open !== null || db.inTransaction) return;
      begin.run();
      open = newBatch();
      schedule(flush);
    },
    isOpen: () => open !== null,
    committed: () => open?.done ?? COMMITTED,
    flush,
  };
}

const byDb = new WeakMap<Db, GroupCommit>();

/** The one group commit of a connection (like `prepared`, created on first use). */
export function groupCommitOf(db: Db): GroupCommit {
  let groupCommit = byDb.get(db);
  if (groupCommit === undefined) {
    groupCommit = createGroupCommit(db);
    byDb.set(db, groupCommit);
  }
  return groupCommit;
}
