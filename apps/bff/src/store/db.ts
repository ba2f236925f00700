import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  FALLBACK_AUTOCHECKPOINT_PAGES,
  migrate as runMigrations,
  startCheckpointer,
  type CheckpointResult,
  type Migration,
} from '@settlement/sqlite';
import Database from 'better-sqlite3';
import type { Sql } from './sql';
import { sqliteSql } from './sqlite-sql';

export type Db = Database.Database;

/**
 * The BFF's schema, forward only (@settlement/sqlite): append `{ name: 'NNN-what', sql }` at the
 * end; never edit or rename one that has shipped (the runner refuses a changed checksum).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    name: '001-operators-sessions-journal-logs',
    sql: `
  CREATE TABLE operators (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('support', 'treasury', 'admin')),
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    operator_id INTEGER NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
    csrf_token TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
  );
  CREATE INDEX sessions_operator ON sessions(operator_id);
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE journal (
    operation_id TEXT PRIMARY KEY,
    operator TEXT NOT NULL,
    operation TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    body BLOB NOT NULL,
    body_hash TEXT NOT NULL,
    client_reference TEXT,
    state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed', 'unknown')),
    status INTEGER,
    response BLOB,
    upstream_request_id TEXT,
    correlation_id TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX journal_key ON journal(idempotency_key);
  CREATE INDEX journal_client_reference ON journal(client_reference);
  CREATE INDEX journal_created ON journal(created_at);
  CREATE TABLE request_log (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    operator TEXT,
    operation TEXT NOT NULL,
    operation_id TEXT,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    status INTEGER,
    duration_ms INTEGER NOT NULL,
    request_id_sent TEXT NOT NULL,
    upstream_request_id TEXT,
    correlation_id TEXT,
    idempotency_key TEXT,
    error TEXT
  );
  CREATE INDEX request_log_at ON request_log(at);
  CREATE INDEX request_log_upstream_request_id ON request_log(upstream_request_id);
  CREATE INDEX request_log_request_id_sent ON request_log(request_id_sent);
  CREATE INDEX request_log_correlation_id ON request_log(correlation_id);
  CREATE INDEX request_log_idempotency_key ON request_log(idempotency_key);
  CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    operator TEXT,
    action TEXT NOT NULL,
    outcome TEXT NOT NULL,
    operation_id TEXT,
    idempotency_key TEXT,
    upstream_request_id TEXT,
    correlation_id TEXT,
    resource_id TEXT,
    detail TEXT
  );
  CREATE INDEX audit_log_at ON audit_log(at);
  CREATE INDEX audit_log_correlation_id ON audit_log(correlation_id);
  CREATE INDEX audit_log_upstream_request_id ON audit_log(upstream_request_id);
  CREATE INDEX audit_log_idempotency_key ON audit_log(idempotency_key);
  CREATE INDEX audit_log_resource_id ON audit_log(resource_id);
  `,
  },
  {
    name: '002-events',
    sql: `
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    correlation_id TEXT,
    upstream_sequence INTEGER,
    org_id TEXT NOT NULL,
    transaction_id TEXT,
    wallet_id TEXT,
    account_id TEXT,
    tx_hash TEXT,
    client_reference TEXT,
    data TEXT NOT NULL,
    raw TEXT NOT NULL,
    received_at INTEGER NOT NULL
  );
  CREATE INDEX events_correlation_id ON events(correlation_id);
  CREATE INDEX events_transaction_id ON events(transaction_id);
  CREATE INDEX events_wallet_id ON events(wallet_id);
  CREATE INDEX events_account_id ON events(account_id);
  CREATE INDEX events_tx_hash ON events(tx_hash);
  CREATE INDEX events_received_at ON events(received_at);
  CREATE TABLE rejected_events (
    id INTEGER PRIMARY KEY,
    reason TEXT NOT NULL,
    detail TEXT NOT NULL,
    raw TEXT NOT NULL,
    received_at INTEGER NOT NULL
  );
  CREATE INDEX rejected_events_received_at ON rejected_events(received_at);
  `,
  },
  // The journal's `abandoned` state (an unknown outcome an operator gave up on after
  // reconciliation). SQLite cannot alter a CHECK constraint, so the table is rebuilt.
  {
    name: '003-journal-abandoned',
    sql: `
  CREATE TABLE journal_abandonable (
    operation_id TEXT PRIMARY KEY,
    operator TEXT NOT NULL,
    operation TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    body BLOB NOT NULL,
    body_hash TEXT NOT NULL,
    client_reference TEXT,
    state TEXT NOT NULL
      CHECK (state IN ('pending', 'succeeded', 'failed', 'unknown', 'abandoned')),
    status INTEGER,
    response BLOB,
    upstream_request_id TEXT,
    correlation_id TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  INSERT INTO journal_abandonable (operation_id, operator, operation, idempotency_key, method,
    path, request_hash, body, body_hash, client_reference, state, status, response,
    upstream_request_id, correlation_id, created_at, updated_at)
  SELECT operation_id, operator, operation, idempotency_key, method, path, request_hash, body,
    body_hash, client_reference, state, status, response, upstream_request_id, correlation_id,
    created_at, updated_at FROM journal;
  DROP TABLE journal;
  ALTER TABLE journal_abandonable RENAME TO journal;
  CREATE INDEX journal_key ON journal(idempotency_key);
  CREATE INDEX journal_client_reference ON journal(client_reference);
  CREATE INDEX journal_created ON journal(created_at);
  `,
  },
  {
    name: '004-governance',
    sql: `
  CREATE TABLE policy_versions (
    version INTEGER PRIMARY KEY,
    document TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE withdrawal_requests (
    id TEXT PRIMARY KEY,
    operation_id TEXT NOT NULL UNIQUE,
    requester TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('AWAITING_APPROVAL', 'APPROVED', 'SUBMITTED',
      'REJECTED', 'CANCELLED', 'EXPIRED', 'FAILED')),
    wallet_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    chain TEXT NOT NULL,
    asset TEXT NOT NULL,
    to_address TEXT NOT NULL,
    amount_atomic TEXT NOT NULL,
    client_reference TEXT,
    body BLOB NOT NULL,
    policy_version INTEGER NOT NULL,
    decision TEXT NOT NULL,
    approvals_required TEXT NOT NULL,
    rejection TEXT,
    transaction_id TEXT,
    correlation_id TEXT,
    failure TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX withdrawal_requests_status ON withdrawal_requests(status, created_at);
  CREATE TABLE withdrawal_approvals (
    request_id TEXT NOT NULL REFERENCES withdrawal_requests(id) ON DELETE CASCADE,
    operator TEXT NOT NULL,
    role TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (request_id, operator)
  );
  CREATE TABLE address_book (
    id TEXT PRIMARY KEY,
    chain TEXT NOT NULL,
    address TEXT NOT NULL,
    label TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('PENDING_APPROVAL', 'ACTIVE', 'REMOVED')),
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    approved_by TEXT,
    approved_at INTEGER,
    removed_by TEXT,
    removed_at INTEGER
  );
  CREATE UNIQUE INDEX address_book_live ON address_book(chain, address) WHERE status != 'REMOVED';
  `,
  },
  // Support's failure explanations: each attempt's non-secret signed lines (never the
  // signature), the upstream's clock and its error envelope; audit-log filters.
  {
    name: '005-support-explanations',
    sql: `
  ALTER TABLE request_log ADD COLUMN key_id TEXT;
  ALTER TABLE request_log ADD COLUMN signed_timestamp TEXT;
  ALTER TABLE request_log ADD COLUMN nonce TEXT;
  ALTER TABLE request_log ADD COLUMN body_hash TEXT;
  ALTER TABLE request_log ADD COLUMN upstream_date INTEGER;
  ALTER TABLE request_log ADD COLUMN error_code TEXT;
  ALTER TABLE request_log ADD COLUMN error_message TEXT;
  ALTER TABLE request_log ADD COLUMN error_details TEXT;
  CREATE INDEX request_log_key_nonce ON request_log(key_id, nonce);
  CREATE INDEX audit_log_operator ON audit_log(operator, at);
  CREATE INDEX audit_log_action ON audit_log(action, at);
  `,
  },
  // Operator security: sign-in steps after the password, step-up, opaque session handles and
  // their device; disabled operators and one-time passwords; passkeys and their challenges.
  {
    name: '006-operator-security',
    sql: `
  ALTER TABLE sessions ADD COLUMN handle TEXT;
  ALTER TABLE sessions ADD COLUMN stage TEXT NOT NULL DEFAULT 'complete'
    CHECK (stage IN ('complete', 'change-password', 'passkey', 'enroll-passkey'));
  ALTER TABLE sessions ADD COLUMN step_up_at INTEGER;
  ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
  ALTER TABLE sessions ADD COLUMN ip TEXT NOT NULL DEFAULT '';
  UPDATE sessions SET handle = lower(hex(randomblob(16))) WHERE handle IS NULL;
  CREATE UNIQUE INDEX sessions_handle ON sessions(handle);
  ALTER TABLE operators ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE operators ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE operators ADD COLUMN last_sign_in_at INTEGER;
  ALTER TABLE operators ADD COLUMN webauthn_user_id TEXT;
  CREATE TABLE passkeys (
    id TEXT PRIMARY KEY,
    operator_id INTEGER NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
    credential_id TEXT NOT NULL UNIQUE,
    public_key BLOB NOT NULL,
    counter INTEGER NOT NULL,
    transports TEXT NOT NULL,
    name TEXT NOT NULL,
    is_backed_up INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER
  );
  CREATE INDEX passkeys_operator ON passkeys(operator_id);
  CREATE TABLE webauthn_challenges (
    session_hash TEXT NOT NULL REFERENCES sessions(id_hash) ON DELETE CASCADE,
    purpose TEXT NOT NULL CHECK (purpose IN ('register', 'login', 'step-up')),
    challenge TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (session_hash, purpose)
  );
  `,
  },
  // Wallet labels: the upstream gives wallets no name; the treasury's optional label per wallet.
  {
    name: '007-wallet-labels',
    sql: `
  CREATE TABLE IF NOT EXISTS wallet_labels (
    wallet_id TEXT PRIMARY KEY,
    label TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by TEXT NOT NULL
  );
  `,
  },
  // Saved views: named list filters, personal or shared with the organization.
  {
    name: '008-saved-views',
    sql: `
  CREATE TABLE saved_views (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    subject TEXT NOT NULL CHECK (subject IN ('transactions', 'wallets', 'accounts', 'events')),
    filters TEXT NOT NULL,
    visibility TEXT NOT NULL CHECK (visibility IN ('personal', 'organization')),
    owner TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (owner, subject, name)
  );
  CREATE INDEX saved_views_shared ON saved_views(visibility, subject);
  `,
  },
  // Login throttling moved from process memory to the database (shared by replicas).
  {
    name: '009-login-failures',
    sql: `
  CREATE TABLE login_failures (
    scope TEXT NOT NULL CHECK (scope IN ('pair', 'address')),
    key TEXT NOT NULL,
    failures INTEGER NOT NULL,
    locked_until INTEGER NOT NULL,
    last_failure_at INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
  );
  CREATE INDEX login_failures_age ON login_failures(scope, last_failure_at);
  `,
  },
  {
    name: '010-request-log-partial-indexes',
    // Reads (nearly every row) carry no idempotency key: a partial index skips their NULLs, one
    // b-tree write less per proxied read. Lookups by `idempotency_key = ?` / `correlation_id = ?`
    // imply NOT NULL, so they still use these indexes.
    sql: `
  DROP INDEX request_log_idempotency_key;
  CREATE INDEX request_log_idempotency_key ON request_log(idempotency_key)
    WHERE idempotency_key IS NOT NULL;
  DROP INDEX request_log_correlation_id;
  CREATE INDEX request_log_correlation_id ON request_log(correlation_id)
    WHERE correlation_id IS NOT NULL;
  `,
  },
  {
    name: '011-events-unused-indexes',
    // Support's event search is one OR over the columns and over fields inside `data` that no
    // index covers, so it reads the table whichever column indexes exist (EXPLAIN QUERY PLAN:
    // SCAN events); no other query filters by these four. Each cost a random b-tree write in
    // the relay's commit of every event: ~10 us apiece (BENCHMARKS.md, 2026-11-25).
    sql: `
  DROP INDEX events_correlation_id;
  DROP INDEX events_wallet_id;
  DROP INDEX events_account_id;
  DROP INDEX events_tx_hash;
  `,
  },
  {
    name: '012-event-keys',
    // Support's search by any key of an event, filled by the key indexer (event-keys.ts) after
    // the relay's commit, never inside it; the watermark says how far. No backfill here: an
    // upgraded store with a million events starts at once, and the indexer catches up.
    sql: `
  CREATE TABLE event_keys (
    key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (key, seq)
  ) WITHOUT ROWID;
  CREATE TABLE event_keys_indexed (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL
  );
  INSERT INTO event_keys_indexed (id, seq) VALUES (1, 0);
  `,
  },
  {
    name: '013-look-up-indexes',
    // Support's look-up (and an operation's page) finds request-log, audit, journal and
    // withdrawal-request rows by any of their ids in one OR per table. A term without an index
    // leaves the OR no index plan, so each look-up read every row: ~50 ms at 200,000 request-log
    // rows (LOG_MAX_ROWS), holding the BFF. Partial where most rows have none: reads carry no
    // operation id, so the proxy's row costs nothing more.
    sql: `
  CREATE INDEX request_log_operation_id ON request_log(operation_id)
    WHERE operation_id IS NOT NULL;
  CREATE INDEX audit_log_operation_id ON audit_log(operation_id)
    WHERE operation_id IS NOT NULL;
  CREATE INDEX journal_upstream_request_id ON journal(upstream_request_id)
    WHERE upstream_request_id IS NOT NULL;
  CREATE INDEX journal_correlation_id ON journal(correlation_id)
    WHERE correlation_id IS NOT NULL;
  CREATE INDEX withdrawal_requests_transaction_id ON withdrawal_requests(transaction_id)
    WHERE transaction_id IS NOT NULL;
  CREATE INDEX withdrawal_requests_correlation_id ON withdrawal_requests(correlation_id)
    WHERE correlation_id IS NOT NULL;
  CREATE INDEX withdrawal_requests_client_reference ON withdrawal_requests(client_reference)
    WHERE client_reference IS NOT NULL;
  CREATE INDEX withdrawal_requests_to_address ON withdrawal_requests(to_address);
  `,
  },
  {
    name: '014-withdrawal-requests-newest',
    // The approvals page's "All" list, newest first, sorted every request to return 200:
    // ~110 ms at 50,000 requests (BENCHMARKS.md). In the list's own order, it reads 200.
    sql: `
  CREATE INDEX withdrawal_requests_newest ON withdrawal_requests(created_at DESC, id);
  `,
  },
  {
    name: '015-address-book-newest',
    // The address book's list, newest first up to its bound, sorted every entry it kept
    // (removed ones too); in the list's own order it reads only what it returns.
    sql: `
  CREATE INDEX address_book_newest ON address_book(created_at DESC);
  `,
  },
];

/** Brings the database up to date; databases from the first runner (user_version) adopt it. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number {
  return runMigrations(db, migrations, {
    adoptLegacy: (legacy) => adoptUserVersion(legacy, migrations),
  });
}

/**
 * The first runner counted applied migrations in `user_version` (N: the first N of the list).
 * Their names are recorded instead and the count cleared, so one table says what ran.
 */
function adoptUserVersion(db: Db, migrations: readonly Migration[]): string[] {
  const applied = Number(db.pragma('user_version', { simple: true }));
  if (applied > migrations.length) {
    throw new Error(
      `user_version ${applied} is beyond this code's ${migrations.length} migrations (a newer version made this database)`,
    );
  }
  db.pragma('user_version = 0');
  return migrations.slice(0, applied).map((migration) => migration.name);
}

/** $DATA_DIR/bff/bff.db with WAL and synchronous=NORMAL, migrated (the raw connection). */
export function openSqliteFile(file: string): Db {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/**
 * The BFF's WAL bound in frames (4 KB pages): past it SQLite's own checkpoint runs inside a
 * COMMIT. Five times @settlement/sqlite's default, so that settles (below) come five times less
 * often: see SETTLE_AT_FRAMES.
 */
const FALLBACK_PAGES = 5 * FALLBACK_AUTOCHECKPOINT_PAGES;

/**
 * WAL frames past which the next transaction waits for one checkpoint of the worker (per the
 * worker's last regular report, so at most once per interval): half the fallback, room for a
 * second try before it. Each settle holds every write of the BFF while the worker syncs
 * (12-17 ms here). At 1,000 relayed events a second (~5 frames each), a settle at 5,000 frames
 * came about once a second, and the events that arrived during it were over 1% of all: the
 * relay's p99 to 10 sockets was theirs (BENCHMARKS.md, 2026-12-07 20:31). At 25,000 frames
 * (a WAL of ~100 MB) it comes about every five seconds.
 */
export const SETTLE_AT_FRAMES = FALLBACK_PAGES / 2;

/**
 * The stores' door to $DATA_DIR/bff/bff.db. Its WAL is checkpointed by a worker (see
 * @settlement/sqlite's checkpointer.ts), not inside the COMMITs of requests and relayed events; a checkpoint that
 * fails there is retried at the next interval, and the fallback bounds the WAL meanwhile.
 *
 * The worker's checkpoints copy the WAL, but SQLite restarts it only at a write that finds it
 * all copied, and under steady writes (the relay commits every event) one always lands while
 * the worker copies and syncs. The WAL then grew to the fallback, whose checkpoint ran inside a
 * COMMIT: the event loop stopped for its syncs, 25-115 ms every ~1.6 s at 1,000 relayed
 * events a second (BENCHMARKS.md, "The relay's stalls, located"). So once the worker reports a
 * WAL of SETTLE_AT_FRAMES or more, all of it copied, the next transaction waits at its turn for
 * one more checkpoint, with no write of this connection in between (every caller queues behind
 * it): the worker copies what came since and syncs, and that transaction's commit restarts the
 * WAL. Only the database waits (12-17 ms on the slow machine that measured the stalls), off the
 * event loop, instead of the whole process.
 */
export function openDb(
  file: string,
  options: {
    checkpointIntervalMs?: number;
    onCheckpoint?: (result: CheckpointResult, isAsked: boolean) => void;
    /** Tests: the settle threshold and the fallback, in WAL frames. */
    settleAtFrames?: number;
    fallbackPages?: number;
  } = {},
): Sql {
  const db = openSqliteFile(file);
  db.pragma(`wal_autocheckpoint = ${options.fallbackPages ?? FALLBACK_PAGES}`);
  const settleAtFrames = options.settleAtFrames ?? SETTLE_AT_FRAMES;
  let isSettleDue = false;
  const checkpointer = startCheckpointer(file, {
    ...(options.checkpointIntervalMs ? { intervalMs: options.checkpointIntervalMs } : {}),
    onCheckpoint: (result, isAsked) => {
      // An asked checkpoint reports the WAL before the restart it makes room for. A regular one
      // that could not copy everything (a reader on an old snapshot) says a held one would not
      // either: nothing is held for it.
      if (!isAsked && result.log >= settleAtFrames && result.checkpointed === result.log) {
        isSettleDue = true;
      }
      options.onCheckpoint?.(result, isAsked);
    },
  });
  const sql = sqliteSql(db, {
    beforeTransaction: () => {
      if (!isSettleDue) return null;
      isSettleDue = false;
      return checkpointer.checkpointNow();
    },
  });
  return {
    ...sql,
    async settleLog() {
      await checkpointer.checkpointNow();
    },
    async close() {
      await checkpointer.stop();
      await sql.close();
    },
  };
}
