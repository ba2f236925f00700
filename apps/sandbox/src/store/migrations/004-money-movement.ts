import type { Migration } from '@settlement/sqlite';

/**
 * Money movement (Sandbox II): double-entry ledger, transactions, signing intents, deposits
 * and the simulated chain's durable height. Amounts are base-10 TEXT (bigint in code).
 */
const SQL = `
CREATE TABLE ledger_entries (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  transaction_id TEXT,
  kind TEXT NOT NULL CHECK (kind IN ('RESERVE', 'RELEASE', 'POST')),
  created_at TEXT NOT NULL
);
CREATE INDEX ledger_entries_transaction ON ledger_entries (transaction_id);

CREATE TABLE ledger_books (
  book TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('WALLET_FREE', 'WALLET_HELD', 'CHAIN_CLEARING', 'FEE_EXPENSE')),
  wallet_id TEXT,
  asset TEXT NOT NULL,
  balance TEXT NOT NULL,
  CHECK (kind NOT IN ('WALLET_FREE', 'WALLET_HELD') OR balance NOT LIKE '-%')
);
CREATE INDEX ledger_books_wallet ON ledger_books (wallet_id);

CREATE TABLE ledger_postings (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entry_id TEXT NOT NULL REFERENCES ledger_entries (id),
  book TEXT NOT NULL REFERENCES ledger_books (book),
  asset TEXT NOT NULL,
  amount TEXT NOT NULL
);
CREATE INDEX ledger_postings_entry ON ledger_postings (entry_id);

CREATE TABLE transactions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  org_id TEXT NOT NULL,
  wallet_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  stage TEXT NOT NULL,
  chain TEXT NOT NULL,
  asset TEXT NOT NULL,
  amount_atomic TEXT NOT NULL,
  direction TEXT NOT NULL,
  transfer_kind TEXT NOT NULL,
  from_address TEXT,
  to_address TEXT,
  client_reference TEXT,
  transaction_group_id TEXT,
  counterpart_transaction_id TEXT,
  is_source_leg INTEGER NOT NULL,
  fee_asset TEXT,
  estimated_fee_atomic TEXT,
  reserved_fee_atomic TEXT,
  actual_fee_atomic TEXT,
  fee_limit_atomic TEXT,
  forced_outcome TEXT,
  tx_hash TEXT,
  block_number INTEGER,
  confirmations INTEGER NOT NULL DEFAULT 0,
  broadcast_at TEXT,
  failure_code TEXT,
  failure_message TEXT,
  billing_reference TEXT NOT NULL,
  correlation_id TEXT NOT NULL,
  request_id TEXT,
  idempotency_key TEXT,
  created_at_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX transactions_client_reference
  ON transactions (org_id, client_reference) WHERE client_reference IS NOT NULL;
CREATE INDEX transactions_org_created ON transactions (org_id, created_at, seq);
CREATE INDEX transactions_wallet ON transactions (wallet_id, created_at, seq);
CREATE INDEX transactions_account ON transactions (account_id, created_at, seq);
CREATE INDEX transactions_pending ON transactions (status) WHERE status = 'PENDING';
CREATE INDEX transactions_tx_hash ON transactions (tx_hash);

CREATE TABLE signing_intents (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  transaction_id TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('PENDING', 'CLAIMED', 'SIGNED', 'CANCELLED')),
  digest TEXT NOT NULL,
  session_id TEXT UNIQUE,
  claimed_by_key_id TEXT,
  created_at TEXT NOT NULL,
  claimed_at TEXT,
  signed_at TEXT
);
CREATE INDEX signing_intents_pending ON signing_intents (org_id, status);

CREATE TABLE deposits (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  wallet_id TEXT NOT NULL,
  transaction_id TEXT NOT NULL,
  tx_hash TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('OBSERVED', 'CREDITED')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE chain_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  height INTEGER NOT NULL,
  last_block_at TEXT NOT NULL
);
`;

/** Numbered 101 until the runner moved to names; databases that recorded 101 adopt it (see ../db.ts). */
export const migration004: Migration = { name: '004-money-movement', sql: SQL };
