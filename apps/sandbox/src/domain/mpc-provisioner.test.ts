import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import { createLogger } from '../logger';
import { migrate, openDb } from '../store/db';
import { provisionTick } from './mpc';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the MPC provisioning clock under a database another process holds', () => {
  it('logs a tick it cannot write instead of throwing out of its timer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mpc-lock-'));
    dirs.push(dir);
    const file = join(dir, 'sandbox.db');
    const db = openDb(file);
    migrate(db);
    db.pragma('busy_timeout = 0');
    const lines: string[] = [];
    const ctx: AppContext = {
      db,
      logger: createLogger('error', { write: (line: string) => lines.push(line) }),
      nowMs: () => Date.parse('2030-01-01T00:00:00.000Z'),
      blockMs: 20,
      cursorSecret: Buffer.alloc(32),
    };
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      expect(() => {
        provisionTick(ctx);
      }).not.toThrow();
      expect(lines.join('')).toContain('MPC provisioning tick failed');
    } finally {
      other.exec('ROLLBACK');
      other.close();
      db.close();
    }
  });
});
