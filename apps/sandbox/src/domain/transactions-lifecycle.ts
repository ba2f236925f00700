import type Database from 'better-sqlite3';
import { FINALITY_CONFIRMATIONS, type EventType } from '@settlement/protocol';
import { newTxHash, type Block } from '../chain/simulated-chain';
import { appendEvent } from '../events/outbox';
import { prepared } from '../store/prepared';
import { depositEventData, markDepositCredited } from './deposits';
import { burnedFee } from './transactions-fees';
import {
  creditDeposit,
  releaseReservation,
  settleConfirmed,
  settleFailedOnChain,
} from './transactions-postings';
import {
  dueTransactions,
  getTransaction,
  updateTransaction,
  type TransactionPatch,
  type TransactionRow,
} from './transactions-store';
import { transactionEventData } from './transactions-view';

/**
 * Moves PENDING transactions along on every block of the simulated chain:
 * signing timeout -> FAILED (CO_SIGNER_TIMEOUT); SIGNED -> broadcast in this block (txHash,
 * 1 confirmation, the actual fee) or FAILED when the forced outcome says so; confirmations progress; at
 * finality CONFIRMED or FAILED_ON_CHAIN. Deposits confirm and are credited at finality.
 *
 * A block is ONE SQLite transaction (one write lock, one commit). First one UPDATE counts on
 * the confirmations of every row on chain that neither crosses an event step nor reaches
 * finality in this block (most blocks of a row's life: stepping those one by one in JS was most
 * of a block's cost). Then the rows left with work (signed, crossing a step, final, timed out)
 * are stepped one by one, in savepoints of up to 32 rows: a step that throws rolls back its chunk,
 * which is stepped again row by row, each in its own savepoint, so it loses its own postings and
 * events only. Once a block has stepped `minStepsPerBlock` rows it stops when its time
 * budget is spent; the next block starts after the last row stepped, so none starves, and the
 * confirmations of a row left over catch up from the block numbers.
 */

/** Confirmation counts that produce a transaction.updated (besides 1 at broadcast). */
const CONFIRMATION_STEPS = [5, 10, 15] as const;

/**
 * The silent part of a block for every row on chain: confirmations counted on from the block
 * number, for rows that cross no step of CONFIRMATION_STEPS and stay below finality (those are
 * stepped one by one, with their events). Nothing indexed changes, so only the rows are written.
 */
const countOn = prepared<[{ height: number; at: string }]>(
  `UPDATE transactions INDEXED BY transactions_due
      SET confirmations = @height - block_number + 1, updated_at = @at
    WHERE status = 'PENDING' AND stage IN ('BROADCAST', 'OBSERVED')
      AND @height - block_number + 1 > confirmations
      AND @height - block_number + 1 < ${String(FINALITY_CONFIRMATIONS)}
      ${CONFIRMATION_STEPS.map(
        (s) =>
          `AND NOT (confirmations < ${String(s)} AND @height - block_number + 1 >= ${String(s)})`,
      ).join('\n      ')}`,
);
export const DEFAULT_CO_SIGNER_TIMEOUT_MS = 120_000;
/** Rows every block steps whatever its budget: more than any test or demo has in flight. */
const DEFAULT_MIN_STEPS_PER_BLOCK = 64;
/**
 * Rows stepped under one savepoint. A savepoint per row (SAVEPOINT and RELEASE, ~40 us) was
 * 3.6% of the sandbox's thread at 200 withdrawals a second; a step throws only on a bug or a
 * corrupt row, and then its chunk is stepped again row by row.
 */
const ROWS_PER_SAVEPOINT = 32;

export type LifecycleDeps = {
  db: Database.Database;
  now: () => number;
  /** A transaction still unsigned this long after creation FAILS with CO_SIGNER_TIMEOUT. */
  coSignerTimeoutMs: number;
  /** Wall time one block may spend stepping rows (after `minStepsPerBlock`); default unbounded. */
  blockBudgetMs?: number;
  minStepsPerBlock?: number;
  onError?: (error: unknown, transactionId: string) => void;
};

type Emit = (type: EventType, row: TransactionRow) => void;

function emitter(db: Database.Database, at: string): Emit {
  return (type, row) => {
    appendEvent(db, {
      orgId: row.orgId,
      type,
      correlationId: row.correlationId,
      occurredAt: at,
      data: transactionEventData(db, row),
    });
  };
}

/**
 * Applies a patch to a PENDING row (guarded in the UPDATE) and returns the row as now stored:
 * the row was read in this block's transaction, so the patch applied to it is what is stored.
 */
function patchPending(
  db: Database.Database,
  row: TransactionRow,
  patch: TransactionPatch,
): TransactionRow {
  if (!updateTransaction(db, row.id, patch, { onlyPending: true })) {
    throw new Error(`transaction ${row.id} is no longer PENDING`);
  }
  return { ...row, ...patch };
}

/** Sets the destination leg of an internal transfer to the source's terminal status. */
function finishDestination(db: Database.Database, source: TransactionRow, at: string): void {
  if (source.counterpartTransactionId === null) return;
  const destination = getTransaction(db, source.counterpartTransactionId);
  if (destination?.status !== 'PENDING') return;
  updateTransaction(db, destination.id, {
    status: source.status,
    stage: 'DONE',
    txHash: source.txHash,
    blockNumber: source.blockNumber,
    confirmations: source.confirmations,
    broadcastAt: source.broadcastAt,
    failureCode: source.failureCode,
    failureMessage: source.failureMessage,
    updatedAt: at,
  });
}

/**
 * FAILS a PENDING withdrawal or transfer: status first (guarded, so the reservation is voided
 * exactly once), then the release entry, the destination leg and transaction.failed.
 */
function failTransaction(
  db: Database.Database,
  row: TransactionRow,
  failure: { code: string; message: string },
  at: string,
): TransactionRow {
  const failed = patchPending(db, row, {
    status: 'FAILED',
    stage: 'DONE',
    failureCode: failure.code,
    failureMessage: failure.message,
    updatedAt: at,
  });
  releaseReservation(db, failed, at);
  db.prepare(
    "UPDATE signing_intents SET status = 'CANCELLED' WHERE transaction_id = ? AND status IN ('PENDING', 'CLAIMED')",
  ).run(row.id);
  finishDestination(db, failed, at);
  emitter(db, at)('transaction.failed', failed);
  return failed;
}

function broadcast(db: Database.Database, row: TransactionRow, block: Block): void {
  if (row.forcedOutcome === 'FAILED') {
    failTransaction(
      db,
      row,
      { code: 'BROADCAST_REJECTED', message: 'The network rejected the signed transaction.' },
      block.at,
    );
    return;
  }
  const next = patchPending(db, row, {
    stage: 'BROADCAST',
    // Inclusion in a block burns the fee, whatever the execution's outcome at finality.
    actualFeeAtomic:
      row.feeAsset === null
        ? null
        : burnedFee(row.feeLimitAtomic === null ? null : BigInt(row.feeLimitAtomic)).toString(),
    txHash: newTxHash(),
    blockNumber: block.number,
    confirmations: 1,
    broadcastAt: block.at,
    updatedAt: block.at,
  });
  emitter(db, block.at)('transaction.updated', next);
}

function finalizeOutgoing(db: Database.Database, row: TransactionRow, at: string): void {
  const emit = emitter(db, at);
  if (row.forcedOutcome === 'FAILED_ON_CHAIN') {
    const failed = patchPending(db, row, {
      status: 'FAILED_ON_CHAIN',
      stage: 'DONE',
      confirmations: FINALITY_CONFIRMATIONS,
      failureCode: 'EXECUTION_REVERTED',
      failureMessage: 'The transaction was included in a block but its execution failed.',
      updatedAt: at,
    });
    settleFailedOnChain(db, failed, at);
    finishDestination(db, failed, at);
    emit('transaction.failed_on_chain', failed);
    return;
  }
  const confirmed = patchPending(db, row, {
    status: 'CONFIRMED',
    stage: 'DONE',
    confirmations: FINALITY_CONFIRMATIONS,
    updatedAt: at,
  });
  settleConfirmed(db, confirmed, at);
  finishDestination(db, confirmed, at);
  emit('transaction.confirmed', confirmed);
}

function finalizeDeposit(db: Database.Database, row: TransactionRow, at: string): void {
  const confirmed = patchPending(db, row, {
    status: 'CONFIRMED',
    stage: 'DONE',
    confirmations: FINALITY_CONFIRMATIONS,
    updatedAt: at,
  });
  const deposit = (type: EventType) => {
    appendEvent(db, {
      orgId: row.orgId,
      type,
      correlationId: row.correlationId,
      occurredAt: at,
      data: depositEventData(db, confirmed),
    });
  };
  deposit('deposit.confirmed');
  emitter(db, at)('transaction.confirmed', confirmed);
  creditDeposit(db, confirmed, at);
  markDepositCredited(db, confirmed.id, at);
  deposit('deposit.credited');
}

function progress(db: Database.Database, row: TransactionRow, block: Block): void {
  if (row.blockNumber === null) return;
  const confirmations = Math.min(block.number - row.blockNumber + 1, FINALITY_CONFIRMATIONS);
  if (confirmations >= FINALITY_CONFIRMATIONS) {
    if (row.type === 'DEPOSIT') finalizeDeposit(db, row, block.at);
    else finalizeOutgoing(db, row, block.at);
    return;
  }
  if (confirmations <= row.confirmations) return;
  const crossed = CONFIRMATION_STEPS.some((s) => row.confirmations < s && s <= confirmations);
  const next = patchPending(db, row, { confirmations, updatedAt: block.at });
  if (crossed) emitter(db, block.at)('transaction.updated', next);
}

export type Lifecycle = {
  onBlock: (block: Block) => void;
};

export function createLifecycle(deps: LifecycleDeps): Lifecycle {
  const { db } = deps;
  const budgetMs = deps.blockBudgetMs ?? Number.POSITIVE_INFINITY;
  const minSteps = deps.minStepsPerBlock ?? DEFAULT_MIN_STEPS_PER_BLOCK;
  /** seq of the last row stepped when the previous block ran out of budget (0: it did not). */
  let resumeAfterSeq = 0;

  function step(row: TransactionRow, block: Block): void {
    switch (row.stage) {
      case 'RESERVED':
      case 'SIGNING':
        // Due only once its Co-Signer deadline passed (dueTransactions).
        failTransaction(
          db,
          row,
          {
            code: 'CO_SIGNER_TIMEOUT',
            message: `The Co-Signer did not sign within ${Math.round(deps.coSignerTimeoutMs / 1000)} s.`,
          },
          new Date(deps.now()).toISOString(),
        );
        return;
      case 'SIGNED':
        broadcast(db, row, block);
        return;
      case 'BROADCAST':
      case 'OBSERVED':
        progress(db, row, block);
        return;
      case 'DESTINATION':
      case 'DONE':
        return;
    }
  }

  /** Steps one row in a savepoint of its own; a step that throws rolls back itself only. */
  function stepAlone(row: TransactionRow, block: Block): void {
    try {
      db.transaction(() => {
        step(row, block);
      })();
    } catch (error) {
      deps.onError?.(error, row.id);
    }
  }

  function stepAll(block: Block): void {
    const started = performance.now();
    countOn(db).run({ height: block.number, at: block.at });
    const rows = dueTransactions(db, {
      height: block.number,
      timedOutAtMs: deps.now() - deps.coSignerTimeoutMs,
      finality: FINALITY_CONFIRMATIONS,
    });
    const from = rows.findIndex((row) => row.seq > resumeAfterSeq);
    const ordered = from <= 0 ? rows : [...rows.slice(from), ...rows.slice(0, from)];
    resumeAfterSeq = 0;
    let stepped = 0;
    const isOutOfTime = () => stepped >= minSteps && performance.now() - started >= budgetMs;
    while (stepped < ordered.length) {
      if (isOutOfTime()) {
        resumeAfterSeq = ordered[stepped - 1]?.seq ?? 0;
        return;
      }
      const first = stepped;
      try {
        // Nested: one savepoint inside the block's transaction for a chunk of rows.
        db.transaction(() => {
          do {
            step(ordered[stepped] as TransactionRow, block);
            stepped += 1;
          } while (
            stepped < ordered.length &&
            stepped - first < ROWS_PER_SAVEPOINT &&
            !isOutOfTime()
          );
        })();
      } catch {
        // The chunk is rolled back whole: its rows are stepped again, each alone, so only the
        // one that throws is lost (and reported), as if every row had had its own savepoint.
        for (let i = first; i <= stepped && i < ordered.length; i += 1) {
          stepAlone(ordered[i] as TransactionRow, block);
        }
        stepped += 1;
      }
    }
  }

  return {
    onBlock: (block) => {
      db.transaction(() => {
        stepAll(block);
      }).immediate();
    },
  };
}
