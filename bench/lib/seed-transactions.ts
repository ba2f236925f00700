import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Bench-only setup: copies one real, CONFIRMED deposit row of the sandbox database into
 * `count - 1` more transactions of the same org, wallet and account (new ids, hashes and
 * creation times one second apart), in one SQLite transaction beside the running sandbox
 * (WAL). The copies carry no ledger entries: they exist to be listed, not to move balances.
 */
export function cloneTransactions(sandboxDataDir: string, templateId: string, count: number) {
  const db = new Database(join(sandboxDataDir, 'sandbox.db'));
  db.pragma('busy_timeout = 5000');
  try {
    const columns = db
      .prepare<[], { name: string }>('PRAGMA table_info(transactions)')
      .all()
      .map((c) => c.name)
      .filter((name) => name !== 'seq');
    const template = db.prepare('SELECT * FROM transactions WHERE id = ?').get(templateId);
    if (typeof template !== 'object' || template === null) throw new Error('no template row');
    const base: Record<string, unknown> = { ...template };
    const insert = db.prepare(
      `INSERT INTO transactions (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    const startMs = Date.now() - count * 1000;
    db.transaction(() => {
      for (let i = 1; i < count; i += 1) {
        const at = new Date(startMs + i * 1000);
        const row: Record<string, unknown> = {};
        for (const column of columns) row[column] = base[column] ?? null;
        row.id = `${templateId}b${String(i).padStart(5, '0')}`;
        row.tx_hash = i.toString(16).padStart(64, '0');
        row.billing_reference = `BILL-B${String(i).padStart(11, '0')}`;
        row.client_reference = null;
        row.created_at_ms = at.getTime();
        row.created_at = at.toISOString();
        row.updated_at = at.toISOString();
        insert.run(row);
      }
    })();
  } finally {
    db.close();
  }
}
