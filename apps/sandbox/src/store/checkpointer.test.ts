import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FALLBACK_AUTOCHECKPOINT_PAGES } from '@settlement/sqlite';
import { checkpointer } from './checkpointer';
import { openDb, type Db } from './db';

/**
 * The WAL is copied back into the database file by a worker on its own connection, not by the
 * COMMIT of a request or a block: the main connection only keeps a far fallback.
 */

let dir: string;
let file: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
  file = join(dir, 'sandbox.db');
  db = openDb(file);
  db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, data BLOB NOT NULL)');
});

afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function autocheckpointPages(): unknown {
  return db.pragma('wal_autocheckpoint', { simple: true });
}

describe('the WAL checkpointer', () => {
  it('copies committed pages into the database file while the main connection never checkpoints below the fallback', async () => {
    const service = checkpointer(db, file, { intervalMs: 20 });
    service.start({ baseUrl: 'http://127.0.0.1:0' });
    try {
      expect(autocheckpointPages()).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
      const before = statSync(file).size;
      // ~200 pages: far below either automatic threshold, so only the worker copies them.
      const insert = db.prepare('INSERT INTO filler (data) VALUES (?)');
      db.transaction(() => {
        for (let i = 0; i < 200; i += 1) insert.run(Buffer.alloc(4000, i));
      })();
      await expect
        .poll(() => statSync(file).size, { timeout: 10_000 })
        .toBeGreaterThan(before + 200 * 4000);
    } finally {
      await service.stop();
    }
    expect(autocheckpointPages()).toBe(1000);
  });

  it('stops without a worker when it never started, and leaves an in-memory database alone', async () => {
    const service = checkpointer(db, file);
    await service.stop();
    expect(autocheckpointPages()).toBe(1000);
    const memory = openDb(':memory:');
    const inMemory = checkpointer(memory, ':memory:');
    inMemory.start({ baseUrl: 'http://127.0.0.1:0' });
    await inMemory.stop();
    memory.close();
  });
});
