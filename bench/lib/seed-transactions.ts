import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Bench-only setup: copies one real, CONFIRMED deposit row of the sandbox database into more
 * transactions of the same org (new ids, hashes and creation times one second apart, before
 * now), in one SQLite transaction, beside the running sandbox (WAL) or while it is stopped. The copies
 * carry no ledger entries: they exist to be listed, not to move balances. Rows are made by
 * SQLite itself (one INSERT ... SELECT over a counter), so a million take seconds, not minutes.
 *
 * `spread` deals the copies over several wallets (with their accounts) and varies type
 * (60% withdrawals, 30% deposits, 10% internal), status (1 in 50 FAILED, 1 in 197
 * FAILED_ON_CHAIN, the rest CONFIRMED) and asset (1 in 5 USDT), so every list filter has rows
 * to find, rare and common; without it every copy is the template (one wallet).
 */
type CloneOptions = {
  /** Copies numbered from..to (inclusive); later calls continue the numbering. */
  from: number;
  to: number;
  spread?: { wallets: { walletId: string; accountId: string }[] };
  /**
   * Copy number i is created at `epochS + i` (Unix seconds; default: the last copy a minute
   * ago). Ascending with the number as with seq, so every index takes its rows at its right
   * edge (descending times split pages in half and doubled the indexes).
   */
  epochS?: number;
  /**
   * The sandbox is stopped: write without a journal (a crash mid-seed loses the bench's temp
   * database, nothing else), and hand the file back in WAL mode.
   */
  isAlone?: boolean;
};

export function cloneTransactions(sandboxDataDir: string, templateId: string, count: number): void {
  seedTransactions(sandboxDataDir, templateId, { from: 1, to: count - 1 });
}

const SPREAD: Record<string, string> = {
  type: `CASE WHEN n.i % 10 < 6 THEN 'WITHDRAWAL' WHEN n.i % 10 < 9 THEN 'DEPOSIT' ELSE 'INTERNAL_TRANSFER' END`,
  direction: `CASE WHEN n.i % 10 BETWEEN 6 AND 8 THEN 'CREDIT' ELSE 'DEBIT' END`,
  transfer_kind: `CASE WHEN n.i % 10 < 6 THEN 'EXTERNAL_WITHDRAWAL' WHEN n.i % 10 < 9 THEN 'DEPOSIT' ELSE 'INTERNAL_TRANSFER' END`,
  status: `CASE WHEN n.i % 50 = 0 THEN 'FAILED' WHEN n.i % 197 = 0 THEN 'FAILED_ON_CHAIN' ELSE 'CONFIRMED' END`,
  asset: `CASE WHEN n.i % 5 = 0 THEN 'USDT' ELSE 'TRX' END`,
  wallet_id: 'w.wallet_id',
  account_id: 'w.account_id',
};

export function seedTransactions(
  sandboxDataDir: string,
  templateId: string,
  options: CloneOptions,
): void {
  const db = new Database(join(sandboxDataDir, 'sandbox.db'));
  db.pragma('busy_timeout = 5000');
  // Room for the right-hand pages of the table and its ~17 indexes while a million rows go in.
  db.pragma('cache_size = -262144');
  if (options.isAlone === true) {
    // Nobody else has the file open: write the pages once, straight into it (no WAL copy).
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
  }
  try {
    const columns = db
      .prepare<[], { name: string }>('PRAGMA table_info(transactions)')
      .all()
      .map((c) => c.name)
      .filter((name) => name !== 'seq');
    const epochS = options.epochS ?? Math.floor(Date.now() / 1000) - options.to - 60;
    const own: Record<string, string> = {
      id: `t.id || 'b' || printf('%09d', n.i)`,
      tx_hash: `printf('%064x', n.i)`,
      billing_reference: `'BILL-B' || printf('%011d', n.i)`,
      client_reference: 'NULL',
      idempotency_key: 'NULL',
      request_id: `'bench-seed'`,
      created_at_ms: `(@epochS + n.i) * 1000`,
      created_at: `strftime('%Y-%m-%dT%H:%M:%fZ', @epochS + n.i, 'unixepoch')`,
      updated_at: `strftime('%Y-%m-%dT%H:%M:%fZ', @epochS + n.i, 'unixepoch')`,
      ...(options.spread === undefined ? {} : SPREAD),
    };
    const select = columns.map((c) => own[c] ?? `t.${c}`).join(', ');
    const wallets = options.spread?.wallets ?? [];
    db.transaction(() => {
      db.exec(
        'CREATE TEMP TABLE IF NOT EXISTS bench_wallets (k INTEGER PRIMARY KEY, wallet_id TEXT, account_id TEXT)',
      );
      db.exec('DELETE FROM bench_wallets');
      const addWallet = db.prepare(
        'INSERT INTO bench_wallets (k, wallet_id, account_id) VALUES (?, ?, ?)',
      );
      wallets.forEach((w, k) => addWallet.run(k, w.walletId, w.accountId));
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT @from UNION ALL SELECT i + 1 FROM n WHERE i < @to)
         INSERT INTO transactions (${columns.join(', ')})
         SELECT ${select} FROM n
           JOIN transactions t ON t.id = @templateId
           ${wallets.length > 0 ? `JOIN bench_wallets w ON w.k = n.i % ${String(wallets.length)}` : ''}`,
      ).run({ from: options.from, to: options.to, templateId, epochS });
    })();
    if (options.isAlone === true) db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
}
