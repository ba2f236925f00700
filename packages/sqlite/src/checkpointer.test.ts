import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCheckpointer, type CheckpointResult } from './checkpointer';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sqlite-ckpt-'));
  file = join(dir, 'test.db');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the WAL checkpoint worker', () => {
  it('copies every committed frame back into the database file', async () => {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE scratch (x BLOB)');
    const insert = db.prepare('INSERT INTO scratch (x) VALUES (randomblob(3000))');
    for (let i = 0; i < 300; i += 1) insert.run();
    const results: CheckpointResult[] = [];
    const errors: string[] = [];
    const checkpointer = startCheckpointer(file, {
      intervalMs: 10,
      onCheckpoint: (result) => results.push(result),
      onError: (message) => errors.push(message),
    });
    try {
      await expect
        .poll(() => results.find((r) => r.log > 0 && r.checkpointed === r.log), { timeout: 10_000 })
        .toBeDefined();
      expect(errors).toEqual([]);
      expect(db.prepare('SELECT COUNT(*) AS n FROM scratch').get()).toEqual({ n: 300 });
    } finally {
      await checkpointer.stop();
      // Stopping twice is harmless: the second waits for the same exit.
      await checkpointer.stop();
      db.close();
    }
  });

  it('reports a database it cannot open instead of throwing into the process', async () => {
    const errors: string[] = [];
    const checkpointer = startCheckpointer(join(dir, 'missing.db'), {
      onError: (message) => errors.push(message),
    });
    await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    // Asked while it dies, and again once it is gone: no answer, and no waiting for ever.
    expect(await checkpointer.checkpointNow()).toBeNull();
    expect(await checkpointer.checkpointNow()).toBeNull();
    await checkpointer.stop();
  });

  it('checkpoints when asked, so the next commit restarts the WAL instead of growing it', async () => {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE scratch (x BLOB)');
    const insert = db.prepare('INSERT INTO scratch (x) VALUES (randomblob(3000))');
    // The regular checkpoints wait a minute: only the first one and the asked one run here.
    const isAsked: boolean[] = [];
    const checkpointer = startCheckpointer(file, {
      intervalMs: 60_000,
      onCheckpoint: (_result, asked) => {
        isAsked.push(asked);
      },
    });
    try {
      for (let i = 0; i < 300; i += 1) insert.run();
      const asked = await checkpointer.checkpointNow();
      expect(isAsked).toEqual([false, true]);
      expect(asked?.log).toBeGreaterThan(300);
      expect(asked?.checkpointed).toBe(asked?.log);
      // Every frame was copied: this commit writes from the WAL's start again.
      insert.run();
      const after = db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[];
      expect(after[0]?.log).toBeLessThan(10);
    } finally {
      await checkpointer.stop();
      db.close();
    }
    expect(await checkpointer.checkpointNow()).toBeNull();
  });
});
