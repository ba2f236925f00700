import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { Direction, TransactionStatus, TransactionType } from '@settlement/protocol';

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

type Statements = {
  insert: Statement<[NewTransaction]>;
  byId: Statement<[string], TransactionRow>;
  byClientReference: Statement<[string, string], TransactionRow>;
  pending: Statement<[], TransactionRow>;
  /** UPDATEs keyed by the columns a patch sets: the lifecycle uses a handful of shapes. */
  updates: Map<string, Statement<[Record<string, unknown>]>>;
};

/**
 * Every block reads and patches each PENDING transaction several times; preparing the SQL
 * each time would compile it again per row per block. Prepared once per connection instead.
 */
const statements = new WeakMap<Database.Database, Statements>();

function statementsOf(db: Database.Database): Statements {
  let prepared = statements.get(db);
  if (!prepared) {
    const columns = FIELDS.map((f) => COLUMNS[f]).join(', ');
    const params = FIELDS.map((f) => `@${f}`).join(', ');
    prepared = {
      insert: db.prepare<[NewTransaction]>(
        `INSERT INTO transactions (${columns}) VALUES (${params})`,
      ),
      byId: db.prepare<[string], TransactionRow>(
        `SELECT ${TRANSACTION_SELECT} FROM transactions WHERE id = ?`,
      ),
      byClientReference: db.prepare<[string, string], TransactionRow>(
        `SELECT ${TRANSACTION_SELECT} FROM transactions WHERE org_id = ? AND client_reference = ?`,
      ),
      pending: db.prepare<[], TransactionRow>(
        `SELECT ${TRANSACTION_SELECT} FROM transactions WHERE status = 'PENDING' ORDER BY seq`,
      ),
      updates: new Map(),
    };
    statements.set(db, prepared);
  }
  return prepared;
}

export function insertTransaction(db: Database.Database, row: NewTransaction): void {
  statementsOf(db).insert.run(row);
}

export type TransactionPatch = Partial<Omit<NewTransaction, 'id' | 'orgId' | 'createdAt'>> & {
  updatedAt: string;
};

export function updateTransaction(
  db: Database.Database,
  id: string,
  patch: TransactionPatch,
): void {
  const keys = (Object.keys(patch) as (keyof TransactionPatch)[]).filter(
    (k) => patch[k] !== undefined,
  );
  const shape = keys.join(',');
  const { updates } = statementsOf(db);
  let update = updates.get(shape);
  if (!update) {
    const sets = keys.map((k) => `${COLUMNS[k]} = @${k}`).join(', ');
    update = db.prepare<[Record<string, unknown>]>(
      `UPDATE transactions SET ${sets} WHERE id = @id`,
    );
    updates.set(shape, update);
  }
  update.run({ ...patch, id });
}

export function getTransaction(db: Database.Database, id: string): TransactionRow | undefined {
  return statementsOf(db).byId.get(id);
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
  return statementsOf(db).byClientReference.get(orgId, clientReference);
}

export function pendingTransactions(db: Database.Database): TransactionRow[] {
  return statementsOf(db).pending.all();
}
