import {
  FALLBACK_AUTOCHECKPOINT_PAGES,
  startCheckpointer,
  type Checkpointer,
} from '@settlement/sqlite';
import type { BackgroundService } from '../context';
import type { Db } from './db';

/**
 * The sandbox database's WAL checkpoints, off the event loop (@settlement/sqlite's worker, as
 * the BFF's store does). A withdrawal writes ~70 WAL pages over its requests and blocks, so
 * under a burst every ~15th COMMIT also copied 1,000 pages into the database file and fsynced it
 * twice, on the one thread that also answers every request and mines every block.
 */

/** How often the worker copies the WAL back into the database file. */
const CHECKPOINT_INTERVAL_MS = 200;
/** SQLite's default, restored when the worker stops. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

/** The checkpoint worker as a background service of the sandbox over `file` (opened as `db`). */
export function checkpointer(
  db: Db,
  file: string,
  options: { intervalMs?: number; onError?: (message: string) => void } = {},
): BackgroundService {
  let running: Checkpointer | null = null;
  return {
    name: 'wal-checkpointer',
    start: () => {
      if (running !== null || file === ':memory:') return;
      db.pragma(`wal_autocheckpoint = ${String(FALLBACK_AUTOCHECKPOINT_PAGES)}`);
      running = startCheckpointer(file, {
        intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
        ...(options.onError ? { onError: options.onError } : {}),
      });
    },
    stop: async () => {
      if (running === null) return;
      const stopping = running;
      running = null;
      await stopping.stop();
      if (db.open) db.pragma(`wal_autocheckpoint = ${String(DEFAULT_AUTOCHECKPOINT_PAGES)}`);
    },
  };
}
