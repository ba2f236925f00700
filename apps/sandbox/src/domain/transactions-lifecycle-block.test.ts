import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../store/db';
import { transactionRow } from '../test-support/transaction-rows';
import { createLifecycle, type LifecycleDeps } from './transactions-lifecycle';
import { getTransaction, insertTransaction, type NewTransaction } from './transactions-store';

/**
 * How a block does its work: one SQLite transaction for all its rows, a savepoint per chunk of rows, a
 * time budget after a minimum of rows, and a round-robin start so a cut never starves a row.
 * Rows are inserted already on chain (BROADCAST in block 1), so a block only counts them on.
 */

const AT = '2030-01-01T00:00:00.000Z';
let dir: string;
let db: Database.Database;
let statements: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lifecycle-block-'));
  statements = [];
  db = new Database(join(dir, 'sandbox.db'), { verbose: (sql) => statements.push(String(sql)) });
  db.pragma('journal_mode = WAL');
  migrate(db);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function onChain(n: number, overrides: Partial<NewTransaction> = {}): NewTransaction {
  return transactionRow({
    id: `tx-${n}`,
    stage: 'BROADCAST',
    // Nothing was reserved for these rows: settling zero keeps the ledger out of the way.
    amountAtomic: '0',
    txHash: `hash-${n}`,
    blockNumber: 1,
    confirmations: 1,
    broadcastAt: AT,
    billingReference: `BILL-${n}`,
    correlationId: `corr-${n}`,
    createdAtMs: Date.parse(AT),
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  });
}

function lifecycle(deps: Partial<LifecycleDeps> = {}) {
  const errors: string[] = [];
  const { onBlock } = createLifecycle({
    db,
    now: () => Date.parse(AT),
    coSignerTimeoutMs: 120_000,
    onError: (_error, id) => errors.push(id),
    ...deps,
  });
  return { onBlock, errors };
}

function confirmations(count: number): number[] {
  return Array.from(
    { length: count },
    (_, i) => getTransaction(db, `tx-${i + 1}`)?.confirmations ?? -1,
  );
}

describe('a block of the transaction lifecycle', () => {
  it('steps every due row in one SQLite transaction (one commit), whatever the number of rows', () => {
    for (let n = 1; n <= 40; n += 1) insertTransaction(db, onChain(n));
    const { onBlock, errors } = lifecycle();
    statements.length = 0;

    onBlock({ number: 3, at: AT });

    expect(statements.filter((sql) => sql.startsWith('COMMIT'))).toHaveLength(1);
    expect(statements.filter((sql) => sql.startsWith('BEGIN'))).toEqual(['BEGIN IMMEDIATE']);
    expect(confirmations(40).every((c) => c === 3)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('rolls back only the step that throws, and the rows after it still move on', () => {
    insertTransaction(db, onChain(1));
    // Final in this block, but never given its actual fee: settling it throws.
    insertTransaction(db, onChain(2, { feeAsset: 'TRX', reservedFeeAtomic: '5' }));
    insertTransaction(db, onChain(3));
    const { onBlock, errors } = lifecycle();

    onBlock({ number: 19, at: AT });

    expect(errors).toEqual(['tx-2']);
    expect(getTransaction(db, 'tx-1')?.status).toBe('CONFIRMED');
    expect(getTransaction(db, 'tx-2')).toMatchObject({ status: 'PENDING', confirmations: 1 });
    expect(getTransaction(db, 'tx-3')?.status).toBe('CONFIRMED');
    // tx-1 was stepped twice (its chunk rolled back, then alone): its event is stored once.
    const confirmedEvents = db
      .prepare(
        "SELECT correlation_id AS correlationId FROM events WHERE type = 'transaction.confirmed'",
      )
      .all();
    expect(confirmedEvents).toEqual([{ correlationId: 'corr-1' }, { correlationId: 'corr-3' }]);
  });

  it('steps rows under one savepoint per 32, not one each', () => {
    // Four confirmations each: the fifth is a step with an event, so every row is stepped.
    for (let n = 1; n <= 40; n += 1) insertTransaction(db, onChain(n, { confirmations: 4 }));
    const { onBlock, errors } = lifecycle();
    statements.length = 0;

    onBlock({ number: 5, at: AT });

    expect(statements.filter((sql) => sql.startsWith('SAVEPOINT'))).toHaveLength(2);
    expect(confirmations(40).every((c) => c === 5)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('counts on the confirmations of rows that cross no step in one UPDATE, never row by row', () => {
    for (let n = 1; n <= 40; n += 1) insertTransaction(db, onChain(n));
    const { onBlock } = lifecycle();
    statements.length = 0;

    onBlock({ number: 2, at: AT });

    expect(statements.filter((sql) => sql.startsWith('UPDATE'))).toHaveLength(1);
    expect(statements.filter((sql) => sql.startsWith('SAVEPOINT'))).toEqual([]);
    expect(confirmations(40).every((c) => c === 2)).toBe(true);
  });

  it('stops at its budget after the minimum of rows, and the next block starts after the last row stepped', () => {
    // Four confirmations each: the fifth is a step with an event, so every row is stepped alone.
    for (let n = 1; n <= 3; n += 1) insertTransaction(db, onChain(n, { confirmations: 4 }));
    const { onBlock } = lifecycle({ blockBudgetMs: 0, minStepsPerBlock: 1 });

    onBlock({ number: 5, at: AT });
    expect(confirmations(3)).toEqual([5, 4, 4]);
    // The row stepped already is counted on; of the two left over, the next one in seq order
    // is stepped, catching up from the block number.
    onBlock({ number: 7, at: AT });
    expect(confirmations(3)).toEqual([7, 7, 4]);
    onBlock({ number: 7, at: AT });
    expect(confirmations(3)).toEqual([7, 7, 7]);
  });

  it('does not touch rows that wait for a signature before their Co-Signer deadline', () => {
    insertTransaction(
      db,
      onChain(1, { stage: 'RESERVED', txHash: null, blockNumber: null, confirmations: 0 }),
    );
    const { onBlock } = lifecycle();
    statements.length = 0;

    onBlock({ number: 2, at: AT });

    // The one UPDATE is the block's count-on of rows on chain; none names this row.
    expect(statements.filter((sql) => sql.startsWith('UPDATE') && sql.includes('id ='))).toEqual(
      [],
    );
    expect(getTransaction(db, 'tx-1')).toMatchObject({ stage: 'RESERVED', updatedAt: AT });
  });
});
