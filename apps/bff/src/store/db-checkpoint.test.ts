import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb } from './db';

const PAGE = 4096;
/** SQLite's default automatic checkpoint threshold, in WAL pages. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1_000;

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bff-ckpt-'));
  file = join(dir, 'bff.db');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('WAL checkpoints off the committing thread', () => {
  it('a commit of the BFF connection does not checkpoint at 1,000 WAL pages', async () => {
    // The worker is there but waits a minute: every checkpoint in this test would be the
    // connection's own, inside one of its commits (what stalled requests and relayed events).
    const sql = openDb(file, { checkpointIntervalMs: 60_000 });
    try {
      await sql.run('CREATE TABLE scratch (x BLOB)');
      for (let i = 0; i < 1_500; i += 1) {
        await sql.run('INSERT INTO scratch (x) VALUES (randomblob(3000))');
      }
      // Had a commit checkpointed, the next one would have restarted the WAL from its start,
      // and the file would not have grown past the threshold.
      const walPages = statSync(`${file}-wal`).size / PAGE;
      expect(walPages).toBeGreaterThan(SQLITE_DEFAULT_AUTOCHECKPOINT * 1.2);
    } finally {
      await sql.close();
    }
  });

  it('settling the log has the worker copy the whole WAL, so the next commit restarts it', async () => {
    const sql = openDb(file, { checkpointIntervalMs: 60_000 });
    const walFrames = async () => {
      const row = await sql.get('PRAGMA wal_checkpoint(PASSIVE)');
      return Number(row?.log);
    };
    try {
      await sql.run('CREATE TABLE scratch (x BLOB)');
      for (let i = 0; i < 300; i += 1) {
        await sql.run('INSERT INTO scratch (x) VALUES (randomblob(3000))');
      }
      await sql.settleLog?.();
      await sql.run('INSERT INTO scratch (x) VALUES (randomblob(3000))');
      // One commit's frames, from the WAL's start: not the 300 before it as well.
      expect(await walFrames()).toBeLessThan(10);
    } finally {
      await sql.close();
    }
  });

  it('under steady transactions, a WAL past the threshold is settled and restarts without the fallback', async () => {
    // Without the settle, every commit here lands while the worker copies or syncs, and the WAL
    // grows until the fallback's checkpoint inside a COMMIT (set out of reach in this test).
    const reports: { log: number; isAsked: boolean }[] = [];
    const sql = openDb(file, {
      checkpointIntervalMs: 20,
      settleAtFrames: 200,
      fallbackPages: 1_000_000,
      onCheckpoint: (result, isAsked) => {
        reports.push({ log: result.log, isAsked });
      },
    });
    const hasRestartedAfterSettle = () => {
      const asked = reports.findIndex((report) => report.isAsked && report.log >= 200);
      if (asked === -1) return false;
      const settled = reports[asked]?.log ?? 0;
      return reports.slice(asked + 1).some((report) => !report.isAsked && report.log < settled);
    };
    try {
      await sql.run('CREATE TABLE scratch (x BLOB)');
      const deadline = Date.now() + 4_000;
      while (!hasRestartedAfterSettle() && Date.now() < deadline) {
        await sql.transaction((tx) => tx.run('INSERT INTO scratch (x) VALUES (randomblob(3000))'));
        // A turn of the event loop, as between relayed events: the worker's reports come in it.
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(hasRestartedAfterSettle()).toBe(true);
      const rows = await sql.get('SELECT COUNT(*) AS n FROM scratch');
      expect(Number(rows?.n)).toBeGreaterThan(200);
    } finally {
      await sql.close();
    }
  });

  it('stops its worker when the database closes', async () => {
    let checkpoints = 0;
    const sql = openDb(file, {
      checkpointIntervalMs: 10,
      onCheckpoint: () => {
        checkpoints += 1;
      },
    });
    await sql.run('CREATE TABLE scratch (x INTEGER)');
    await expect.poll(() => checkpoints, { timeout: 10_000 }).toBeGreaterThan(0);
    await sql.close();
    // SQLite removes the WAL when its LAST connection closes: the worker's is gone too.
    expect(existsSync(`${file}-wal`)).toBe(false);
  });
});
