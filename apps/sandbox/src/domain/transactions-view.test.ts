import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../store/db';
import { transactionRow } from '../test-support/transaction-rows';
import { insertTransaction, getTransaction, type NewTransaction } from './transactions-store';
import { pageViewContext, toTransaction, type ViewContext } from './transactions-view';

/**
 * A list page is shaped from what two queries read for the whole page (account names, ledger
 * postings), and says exactly what shaping each row on its own says.
 */

const AT = '2030-01-01T00:00:00.000Z';
let db: Database.Database;
let statements: string[];
const base: ViewContext = { decimalsOf: () => 6 };

function row(n: number, accountId: string): NewTransaction {
  return transactionRow({
    id: `tx-${n}`,
    walletId: `wallet-${accountId}`,
    accountId,
    amountAtomic: String(n * 1_000_000),
    billingReference: `BILL-${n}`,
    correlationId: `corr-${n}`,
    createdAtMs: Date.parse(AT) + n,
    createdAt: AT,
    updatedAt: AT,
  });
}

beforeEach(() => {
  statements = [];
  db = new Database(':memory:', { verbose: (sql) => statements.push(String(sql)) });
  migrate(db);
  db.exec(`INSERT INTO orgs (id, name, created_at) VALUES ('org', 'Org', '${AT}')`);
  const account = db.prepare(
    `INSERT INTO accounts (id, org_id, name, name_folded, correlation_id, created_at, updated_at)
     VALUES (?, 'org', ?, ?, 'c', '${AT}', '${AT}')`,
  );
  const book = db.prepare(
    `INSERT INTO ledger_books (book, org_id, kind, wallet_id, asset, balance) VALUES (?, 'org', ?, ?, 'TRX', '0')`,
  );
  const entry = db.prepare(
    `INSERT INTO ledger_entries (id, org_id, transaction_id, kind, created_at) VALUES (?, 'org', ?, ?, '${AT}')`,
  );
  const posting = db.prepare(
    'INSERT INTO ledger_postings (entry_id, book, asset, amount) VALUES (?, ?, ?, ?)',
  );
  for (const id of ['acc-a', 'acc-b']) {
    account.run(id, `Account ${id}`, id);
    book.run(`free-${id}`, 'WALLET_FREE', `wallet-${id}`);
    book.run(`held-${id}`, 'WALLET_HELD', `wallet-${id}`);
  }
  for (let n = 1; n <= 20; n += 1) {
    const accountId = n % 2 === 0 ? 'acc-a' : 'acc-b';
    insertTransaction(db, row(n, accountId));
    // Two entries on every third row (reserve, then release), none on the others.
    if (n % 3 !== 0) continue;
    for (const [kind, held] of [
      ['RESERVE', n],
      ['RELEASE', -n],
    ] as const) {
      entry.run(`${kind}-${n}`, `tx-${n}`, kind);
      posting.run(`${kind}-${n}`, `free-${accountId}`, 'TRX', String(-held));
      posting.run(`${kind}-${n}`, `held-${accountId}`, 'TRX', String(held));
    }
  }
});

afterEach(() => {
  db.close();
});

describe('the view of a list page', () => {
  it('reads account names and postings once for the page, and shapes each row as alone', () => {
    const rows = Array.from({ length: 20 }, (_, i) => getTransaction(db, `tx-${i + 1}`)).filter(
      (r) => r !== undefined,
    );
    const alone = rows.map((r) => toTransaction(db, r, base));
    statements.length = 0;

    const context = pageViewContext(db, 'org', rows, base);
    const page = rows.map((r) => toTransaction(db, r, context));

    expect(statements).toHaveLength(2);
    expect(page).toEqual(alone);
    expect(page[2]?.balanceEffects?.map((e) => e.kind)).toEqual(['RESERVE', 'RELEASE']);
    expect(page[1]?.account).toEqual({ id: 'acc-a', name: 'Account acc-a' });
  });
});
