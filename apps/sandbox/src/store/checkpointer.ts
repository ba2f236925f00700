import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { BackgroundService } from '../context';
import type { Db } from './db';

/**
 * The sandbox database's WAL checkpoints, off the event loop (the BFF's store does the same:
 * apps/bff/src/store/checkpointer.ts; one shared copy in @settlement/sqlite is owed).
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that crosses 1,000 WAL pages, on the
 * thread that commits. A withdrawal writes ~70 WAL pages over its requests and blocks, so
 * under a burst every ~15th commit also copied 1,000 pages into the database file and fsynced
 * it twice (strace of the sandbox during 1,500 withdrawals: 111 fsyncs of ~0.6 ms and 85,000
 * pwrites in 8 s, all on the one thread that also answers every request and mines every
 * block). A worker now does the regular checkpoints on its own connection; the main
 * connection keeps a far automatic checkpoint as a fallback, so the WAL stays bounded even if
 * the worker falls behind or dies.
 */

/** How often the worker copies the WAL back into the database file. */
const CHECKPOINT_INTERVAL_MS = 200;
/** The main connection's own automatic checkpoint (~40 MiB of WAL): only a fallback. */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;
/** SQLite's default, restored when the worker stops. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

/**
 * Runs in the worker (CommonJS, evaluated from this string: no build step, no loader). PASSIVE
 * never waits for and never blocks the writer or the readers; what it cannot copy now it copies
 * next time.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
const tick = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ kind: 'error', message: String(error && error.message) });
  }
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  tick();
  db.close();
  parentPort.close();
});
`;

/** The checkpoint worker as a background service of the sandbox over `file` (opened as `db`). */
export function checkpointer(
  db: Db,
  file: string,
  options: { intervalMs?: number; onError?: (message: string) => void } = {},
): BackgroundService {
  let worker: Worker | null = null;
  let exited: Promise<void> = Promise.resolve();
  return {
    name: 'wal-checkpointer',
    start: () => {
      if (worker !== null || file === ':memory:') return;
      db.pragma(`wal_autocheckpoint = ${String(FALLBACK_AUTOCHECKPOINT_PAGES)}`);
      const started = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: {
          file,
          driver: createRequire(import.meta.url).resolve('better-sqlite3'),
          intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
        },
      });
      // Never what keeps the process alive; the database stays correct without it.
      started.unref();
      started.on('message', (message: { kind: string; message?: string }) => {
        if (message.kind === 'error') options.onError?.(message.message ?? 'checkpoint failed');
      });
      started.on('error', (error) => {
        options.onError?.(error.message);
      });
      exited = new Promise((resolve) => {
        started.once('exit', () => {
          resolve();
        });
      });
      worker = started;
    },
    stop: async () => {
      if (worker === null) return;
      worker.postMessage('stop');
      worker = null;
      await exited;
      if (db.open) db.pragma(`wal_autocheckpoint = ${String(DEFAULT_AUTOCHECKPOINT_PAGES)}`);
    },
  };
}
