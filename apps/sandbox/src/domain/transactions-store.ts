import type Database from 'better-sqlite3';
import type { Direction, TransactionStatus, TransactionType } from '@settlement/protocol';
import { prepared, preparedByShape } from '../store/prepared';

/** Where a PENDING transaction is in its lifecycle (internal; never a REST status). */
type Stage = 'RESERVED' | 'SIGNING' | 'SIGNED' | 'BROADCAST' | 'OBSERVED' | 'DESTINATION' | 'DONE';

type TransferKind = 'EXTERNAL_WITHDRAWAL' | 'INTERNAL_TRANSFER' | 'DEPOSIT';
type ForcedOutcome = 'CONFIRMED' | 'FAILED' | 'FAILED_ON_CHAIN';

export type TransactionRow = {
  seq: number;
  id: string;
  orgId: string;
  walletId: string;
  accountId: string;
  type: TransactionType;
  status: TransactionStatus;
  stage: Stage;
  chain: string;
  asset: string;
  amountAtomic: string;
  direction: Direction;
  transferKind: TransferKind;
  fromAddress: string | null;
  toAddress: string | null;
  clientReference: string | null;
  transactionGroupId: string | null;
  counterpartTransactionId: string | null;
  isSourceLeg: number;
  feeAsset: string | null;
  estimatedFeeAtomic: string | null;
  reservedFeeAtomic: string | null;
  actualFeeAtomic: string | null;
  feeLimitAtomic: string | null;
  forcedOutcome: ForcedOutcome | null;
  txHash: string | null;
  blockNumber: number | null;
  confirmations: number;
  broadcastAt: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  billingReference: string;
  correlationId: string;
  requestId: string | null;
  idempotencyKey: string | null;
  createdAtMs: number;
  createdAt: string;
  updatedAt: string;
};

export type NewTransaction = Omit<TransactionRow, 'seq'>;

const COLUMNS: Record<keyof NewTransaction, string> = {
  id: 'id',
  orgId: 'org_id',
  walletId: 'wallet_id',
  accountId: 'account_id',
  type: 'type',
  status: 'status',
  stage: 'stage',
  chain: 'chain',
  asset: 'asset',
  amountAtomic: 'amount_atomic',
  direction: 'direction',
  transferKind: 'transfer_kind',
  fromAddress: 'from_address',
  toAddress: 'to_address',
  clientReference: 'client_reference',
  transactionGroupId: 'transaction_group_id',
  counterpartTransactionId: 'counterpart_transaction_id',
  isSourceLeg: 'is_source_leg',
  feeAsset: 'fee_asset',
  estimatedFeeAtomic: 'estimated_fee_atomic',
  reservedFeeAtomic: 'reserved_fee_atomic',
  actualFeeAtomic: 'actual_fee_atomic',
  feeLimitAtomic: 'fee_limit_atomic',
  forcedOutcome: 'forced_outcome',
  txHash: 'tx_hash',
  blockNumber: 'block_number',
  confirmations: 'confirmations',
  broadcastAt: 'broadcast_at',
  failureCode: 'failure_code',
  failureMessage: 'failure_message',
  billingReference: 'billing_reference',
  correlationId: 'correlation_id',
  requestId: 'request_id',
  idempotencyKey: 'idempotency_key',
  createdAtMs: 'created_at_ms',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const FIELDS = Object.keys(COLUMNS) as (keyof NewTransaction)[];

/** `SELECT` list mapping snake_case columns to the row's camelCase fields. */
export const TRANSACTION_SELECT = `seq, ${FIELDS.map((f) => `${COLUMNS[f]} AS ${f}`).join(', ')}`;

const columnList = FIELDS.map((f) => COLUMNS[f]).join(', ');
const paramList = FIELDS.map((f) => `@${f}`).join(', ');

const insert = prepared<[NewTransaction]>(
  `INSERT INTO transactions (${columnList}) VALUES (${paramList})`,
);
const byId = prepared<[string], TransactionRow>(
  `SELECT ${TRANSACTION_SELECT} FROM transactions WHERE id = ?`,
);
const byClientReference = prepared<[string, string], TransactionRow>(
  `SELECT ${TRANSACTION_SELECT} FROM transactions WHERE org_id = ? AND client_reference = ?`,
);
// Only rows a block has work for, row by row: a signed one to broadcast, one on chain whose
// confirmations cross a step that emits an event or reach finality (the others are counted on
// by one UPDATE per block first, see the lifecycle), and one still unsigned once its Co-Signer
// deadline passed. Rows waiting for a signature (most of a burst) are neither read nor written
// by a block until then (index: migration 006).
const due = prepared<[{ height: number; timedOutAtMs: number; finality: number }], TransactionRow>(
  `SELECT ${TRANSACTION_SELECT} FROM transactions INDEXED BY transactions_due
    WHERE status = 'PENDING' AND stage = 'SIGNED'
   UNION ALL
   SELECT ${TRANSACTION_SELECT} FROM transactions INDEXED BY transactions_due
    WHERE status = 'PENDING' AND stage IN ('BROADCAST', 'OBSERVED')
      AND MIN(@height - block_number + 1, @finality) > confirmations
   UNION ALL
   SELECT ${TRANSACTION_SELECT} FROM transactions INDEXED BY transactions_due
    WHERE status = 'PENDING' AND stage IN ('RESERVED', 'SIGNING') AND created_at_ms <= @timedOutAtMs
   ORDER BY seq`,
);
/** UPDATEs keyed by the columns a patch sets: the lifecycle uses a handful of shapes. */
const update = preparedByShape<[Record<string, unknown>]>();

/** Inserts the row and returns its `seq`: with it, the row as stored needs no read back. */
export function insertTransaction(db: Database.Database, row: NewTransaction): number {
  return Number(insert(db).run(row).lastInsertRowid);
}

export type TransactionPatch = Partial<Omit<NewTransaction, 'id' | 'orgId' | 'createdAt'>> & {
  updatedAt: string;
};

/**
 * Applies a patch to one row; `onlyPending` guards it with `status = 'PENDING'`. Returns
 * whether a row changed.
 */
export function updateTransaction(
  db: Database.Database,
  id: string,
  patch: TransactionPatch,
  options: { onlyPending?: boolean } = {},
): boolean {
  const keys = (Object.keys(patch) as (keyof TransactionPatch)[]).filter(
    (k) => patch[k] !== undefined,
  );
  const guard = options.onlyPending === true ? " AND status = 'PENDING'" : '';
  const sets = keys.map((k) => `${COLUMNS[k]} = @${k}`).join(', ');
  const sql = `UPDATE transactions SET ${sets} WHERE id = @id${guard}`;
  return update(db, sql).run({ ...patch, id }).changes > 0;
}

export function getTransaction(db: Database.Database, id: string): TransactionRow | undefined {
  return byId(db).get(id);
}

export function getOrgTransaction(
  db: Database.Database,
  orgId: string,
  id: string,
): TransactionRow | undefined {
  const row = getTransaction(db, id);
  return row?.orgId === orgId ? row : undefined;
}

export function findByClientReference(
  db: Database.Database,
  orgId: string,
  clientReference: string,
): TransactionRow | undefined {
  return byClientReference(db).get(orgId, clientReference);
}

/**
 * PENDING rows a block must step, oldest first: signed ones, ones on chain whose confirmations
 * at `height` are above what is stored (capped at `finality`), and unsigned ones created at or
 * before `timedOutAtMs`.
 */
export function dueTransactions(
  db: Database.Database,
  at: { height: number; timedOutAtMs: number; finality: number },
): TransactionRow[] {
  return due(db).all(at);
}
