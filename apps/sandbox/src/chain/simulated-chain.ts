import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';

/**
 * The simulated TRON chain: one block producer for both chain ids (`tron:mainnet` and
 * `tron:nile` share heights). The height is durable (table chain_state), so a restart
 * continues where it stopped and confirmations keep counting. Blocks come from a timer every
 * `blockMs`, or from `mineBlock()` (tests). Listeners run synchronously, in order, per block.
 */

export type Block = { number: number; at: string };
export type BlockListener = (block: Block) => void;

export type ChainTimers = {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
};

const realTimers: ChainTimers = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (handle) => {
    clearInterval(handle as NodeJS.Timeout);
  },
};

export type SimulatedChainDeps = {
  db: Database.Database;
  blockMs: number;
  now?: () => number;
  timers?: ChainTimers;
  onError?: (error: unknown) => void;
};

/** 64 lowercase hex characters, like a TRON transaction id. */
export function newTxHash(): string {
  return randomBytes(32).toString('hex');
}

type ChainStatements = {
  height: Statement<[], { height: number }>;
  advance: Statement<[number, string]>;
};

/** Read and written on every block: prepared once per connection. */
const statements = new WeakMap<Database.Database, ChainStatements>();

function statementsOf(db: Database.Database): ChainStatements {
  let prepared = statements.get(db);
  if (!prepared) {
    prepared = {
      height: db.prepare<[], { height: number }>('SELECT height FROM chain_state WHERE id = 1'),
      advance: db.prepare<[number, string]>(
        `INSERT INTO chain_state (id, height, last_block_at) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET height = excluded.height, last_block_at = excluded.last_block_at`,
      ),
    };
    statements.set(db, prepared);
  }
  return prepared;
}

/** The durable chain height (0 before the first block). */
export function currentHeight(db: Database.Database): number {
  return statementsOf(db).height.get()?.height ?? 0;
}

export class SimulatedChain {
  private readonly listeners: BlockListener[] = [];
  private timer: unknown = null;
  private readonly now: () => number;
  private readonly timers: ChainTimers;

  constructor(private readonly deps: SimulatedChainDeps) {
    this.now = deps.now ?? Date.now;
    this.timers = deps.timers ?? realTimers;
  }

  get height(): number {
    return currentHeight(this.deps.db);
  }

  onBlock(listener: BlockListener): void {
    this.listeners.push(listener);
  }

  /**
   * Produces the next block and runs every listener for it, in ONE transaction with the new
   * height (a second commit per block, 50 a second at 20 ms blocks, was ~1% of the sandbox's
   * CPU under a withdrawal burst). Each listener runs in its own savepoint: one that throws
   * leaves nothing behind and the block still commits.
   */
  mineBlock(): Block {
    const { db } = this.deps;
    const at = new Date(this.now()).toISOString();
    return db
      .transaction(() => {
        const block = { number: this.height + 1, at };
        statementsOf(db).advance.run(block.number, at);
        for (const listener of this.listeners) {
          try {
            db.transaction(() => {
              listener(block);
            })();
          } catch (error) {
            this.deps.onError?.(error);
          }
        }
        return block;
      })
      .immediate();
  }

  start(): void {
    if (this.timer !== null) return;
    this.timer = this.timers.setInterval(() => {
      // A block that cannot be written now (another process holds the database past the busy
      // timeout) is produced by a later tick; the chain must never take the sandbox down.
      try {
        this.mineBlock();
      } catch (error) {
        this.deps.onError?.(error);
      }
    }, this.deps.blockMs);
  }

  stop(): void {
    if (this.timer === null) return;
    this.timers.clearInterval(this.timer);
    this.timer = null;
  }
}
