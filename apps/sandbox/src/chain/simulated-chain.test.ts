import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDb } from '../store/db';
import { SimulatedChain, type ChainTimers } from './simulated-chain';

/** Timers driven by hand: `tick()` runs the interval's callback once. */
function manualTimers(): ChainTimers & { tick: () => void } {
  let callback: (() => void) | null = null;
  return {
    setInterval: (fn) => {
      callback = fn;
      return 1;
    },
    clearInterval: () => {
      callback = null;
    },
    tick: () => callback?.(),
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('SimulatedChain under a database another process holds', () => {
  it('reports a block it cannot write and produces it on a later tick, never throwing out of the timer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chain-lock-'));
    dirs.push(dir);
    const file = join(dir, 'sandbox.db');
    const db = openDb(file);
    migrate(db);
    db.pragma('busy_timeout = 0');
    const errors: unknown[] = [];
    const timers = manualTimers();
    const chain = new SimulatedChain({ db, blockMs: 20, timers, onError: (e) => errors.push(e) });
    chain.start();
    const before = chain.height;

    const other = new Database(file);
    other.prepare('BEGIN IMMEDIATE').run();
    expect(() => {
      timers.tick();
    }).not.toThrow();
    expect(errors).toHaveLength(1);
    expect(chain.height).toBe(before);

    other.prepare('COMMIT').run();
    other.close();
    timers.tick();
    expect(chain.height).toBe(before + 1);
    chain.stop();
    db.close();
  });
});
