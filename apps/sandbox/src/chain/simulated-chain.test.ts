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

describe('SimulatedChain blocks', () => {
  it('commits the height and its listeners at once; a listener that throws leaves nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chain-block-'));
    dirs.push(dir);
    const file = join(dir, 'sandbox.db');
    const db = openDb(file);
    migrate(db);
    db.exec('CREATE TABLE seen (block INTEGER NOT NULL, listener TEXT NOT NULL)');
    const errors: unknown[] = [];
    const chain = new SimulatedChain({ db, blockMs: 20, onError: (e) => errors.push(e) });
    const reader = new Database(file, { readonly: true });
    const committedHeight = () =>
      reader.prepare<[], { height: number }>('SELECT height FROM chain_state').get()?.height ?? 0;
    const seenInside: number[] = [];
    chain.onBlock((block) => {
      db.prepare("INSERT INTO seen (block, listener) VALUES (?, 'failing')").run(block.number);
      throw new Error('listener failed');
    });
    chain.onBlock((block) => {
      db.prepare("INSERT INTO seen (block, listener) VALUES (?, 'ok')").run(block.number);
      // Nothing of this block is visible to another connection before the block commits.
      seenInside.push(committedHeight());
    });
    const block = chain.mineBlock();
    expect(seenInside).toEqual([block.number - 1]);
    expect(committedHeight()).toBe(block.number);
    expect(errors).toHaveLength(1);
    expect(reader.prepare<[], { listener: string }>('SELECT listener FROM seen').all()).toEqual([
      { listener: 'ok' },
    ]);
    reader.close();
    db.close();
  });
});
