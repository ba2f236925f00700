import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker copies the WAL back into the database file, unless told otherwise. */
const CHECKPOINT_INTERVAL_MS = 250;
/**
 * The committing connection still checkpoints by itself past this many WAL pages (~40 MiB):
 * only if the worker fell far behind or died, so the WAL stays bounded whatever happens.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

/** One checkpoint of the worker: `wal_checkpoint(PASSIVE)`'s busy flag and frame counts. */
export type CheckpointResult = { busy: number; log: number; checkpointed: number };

export type Checkpointer = {
  /**
   * One checkpoint now, off this thread, besides the regular ones; null once stopped or if the
   * worker failed. A writer that pauses for it lets the worker copy the whole WAL, so the next
   * commit restarts the WAL instead of growing it to the fallback.
   */
  checkpointNow(): Promise<CheckpointResult | null>;
  stop(): Promise<void>;
};

/**
 * Runs in the worker (CommonJS, evaluated from this string, so it needs no build step and no
 * loader): its own connection to the same file, a PASSIVE checkpoint at once and then every
 * interval. PASSIVE never waits for and never blocks the writer or the readers; what it cannot
 * copy now it copies next time.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
const tick = (askedId) => {
  try {
    const row = db.pragma('wal_checkpoint(PASSIVE)')[0];
    parentPort.postMessage({ kind: 'checkpoint', result: row, askedId });
  } catch (error) {
    parentPort.postMessage({ kind: 'error', message: String(error && error.message), askedId });
  }
};
const timer = setInterval(tick, workerData.intervalMs);
tick();
parentPort.on('message', (message) => {
  if (message && message.kind === 'checkpoint') {
    tick(message.id);
    return;
  }
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Checkpoints a WAL database off the event loop. SQLite's automatic checkpoint runs inside the
 * COMMIT that crosses 1,000 WAL pages, on the thread that commits: it copies the pages and
 * fsyncs the database file, 10-40 ms, stalling every request, relayed event or block behind it
 * (the BFF: p99 of storing one relay event 12 ms with it, 0.5 ms without; the sandbox: 111
 * fsyncs and 85,000 pwrites in 8 s of withdrawals, all on its one thread). The caller lowers its
 * connection's own automatic checkpoint to FALLBACK_AUTOCHECKPOINT_PAGES and this worker does
 * the regular ones on a second connection.
 */
export function startCheckpointer(
  file: string,
  options: {
    intervalMs?: number;
    /** Every checkpoint's result; `isAsked`: one of checkpointNow's, not a regular one. */
    onCheckpoint?: (result: CheckpointResult, isAsked: boolean) => void;
    onError?: (message: string) => void;
  } = {},
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS },
  });
  // Never what keeps the process alive; the database stays correct without it.
  worker.unref();
  /** Asked checkpoints by id, answered in the order they were asked. */
  const asked = new Map<number, (result: CheckpointResult | null) => void>();
  let nextId = 1;
  const answerAll = () => {
    for (const answer of asked.values()) answer(null);
    asked.clear();
  };
  worker.on(
    'message',
    (message: { kind: string; result?: CheckpointResult; message?: string; askedId?: number }) => {
      if (message.kind === 'checkpoint' && message.result)
        options.onCheckpoint?.(message.result, message.askedId !== undefined);
      else if (message.kind === 'error') options.onError?.(message.message ?? 'checkpoint failed');
      if (message.askedId === undefined) return;
      asked.get(message.askedId)?.(message.result ?? null);
      asked.delete(message.askedId);
    },
  );
  worker.on('error', (error) => {
    options.onError?.(error.message);
    answerAll();
  });
  // A worker that died (a database it could not open, a crash) answers nothing more: asking it
  // then must not leave the asker waiting for ever.
  let hasExited = false;
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      hasExited = true;
      answerAll();
      resolve();
    });
  });
  let isStopped = false;
  return {
    checkpointNow() {
      if (isStopped || hasExited) return Promise.resolve(null);
      const id = nextId;
      nextId += 1;
      return new Promise((resolve) => {
        asked.set(id, resolve);
        worker.postMessage({ kind: 'checkpoint', id });
      });
    },
    async stop() {
      if (!isStopped) {
        isStopped = true;
        // Held again while it closes: awaiting an unreferenced worker alone would let the
        // process end mid-await, skipping whatever the caller does after close().
        worker.ref();
        worker.postMessage('stop');
      }
      await exited;
    },
  };
}
