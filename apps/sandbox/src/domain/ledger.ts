import type Database from 'better-sqlite3';
import { timeOrderedId } from '@settlement/protocol/ids';
import { prepared } from '../store/prepared';

/**
 * Double-entry ledger. Every balance change is one entry of postings that sum to zero per
 * asset. Books (accounts of the ledger, not to be confused with the API's ledger accounts):
 *
 * - `wallet:<walletId>:<asset>:free`  spendable part of a wallet's posted balance (available)
 * - `wallet:<walletId>:<asset>:held`  reserved part of a wallet's posted balance
 * - `org:<orgId>:chain-clearing:<chain>:<asset>`  the outside world (deposits in, withdrawals out)
 * - `org:<orgId>:fee-expense:<chain>:<asset>`  network fees consumed
 *
 * posted = free + held, reserved = held, available = free. Wallet books never go negative.
 * Amounts are bigint in code and base-10 strings in SQLite (no 64-bit limit, no float).
 */

export type BookKind = 'WALLET_FREE' | 'WALLET_HELD' | 'CHAIN_CLEARING' | 'FEE_EXPENSE';
export type EntryKind = 'RESERVE' | 'RELEASE' | 'POST';

export type Book = {
  book: string;
  orgId: string;
  kind: BookKind;
  walletId: string | null;
  asset: string;
};

export type Posting = { book: Book; amount: bigint };

export type WalletRef = { id: string; orgId: string; chain: string };

export function freeBook(wallet: WalletRef, asset: string): Book {
  return {
    book: `wallet:${wallet.id}:${asset}:free`,
    orgId: wallet.orgId,
    kind: 'WALLET_FREE',
    walletId: wallet.id,
    asset,
  };
}

export function heldBook(wallet: WalletRef, asset: string): Book {
  return {
    book: `wallet:${wallet.id}:${asset}:held`,
    orgId: wallet.orgId,
    kind: 'WALLET_HELD',
    walletId: wallet.id,
    asset,
  };
}

export function clearingBook(orgId: string, chain: string, asset: string): Book {
  return {
    book: `org:${orgId}:chain-clearing:${chain}:${asset}`,
    orgId,
    kind: 'CHAIN_CLEARING',
    walletId: null,
    asset,
  };
}

export function feeExpenseBook(orgId: string, chain: string, asset: string): Book {
  return {
    book: `org:${orgId}:fee-expense:${chain}:${asset}`,
    orgId,
    kind: 'FEE_EXPENSE',
    walletId: null,
    asset,
  };
}

export class LedgerError extends Error {
  override readonly name = 'LedgerError';
}

const WALLET_KINDS: readonly BookKind[] = ['WALLET_FREE', 'WALLET_HELD'];

type BalanceRow = { balance: string };

const insertEntry = prepared<[string, string, string | null, EntryKind, string]>(
  'INSERT INTO ledger_entries (id, org_id, transaction_id, kind, created_at) VALUES (?, ?, ?, ?, ?)',
);
const insertPosting = prepared<[string, string, string, string]>(
  'INSERT INTO ledger_postings (entry_id, book, asset, amount) VALUES (?, ?, ?, ?)',
);
const readBook = prepared<[string], BalanceRow>('SELECT balance FROM ledger_books WHERE book = ?');
const upsertBook = prepared<[string, string, BookKind, string | null, string, string]>(
  `INSERT INTO ledger_books (book, org_id, kind, wallet_id, asset, balance) VALUES (?, ?, ?, ?, ?, ?)
   ON CONFLICT (book) DO UPDATE SET balance = excluded.balance`,
);

/**
 * Writes one balanced entry. Must run inside the caller's db.transaction so the entry commits
 * with the state change it belongs to. Throws LedgerError (and writes nothing that survives
 * the caller's rollback) when the postings do not balance or a wallet book would go negative.
 */
export function postEntry(
  db: Database.Database,
  entry: { orgId: string; transactionId: string | null; kind: EntryKind; at: string },
  postings: readonly Posting[],
): string {
  if (!db.inTransaction) throw new LedgerError('postEntry must run inside a transaction');
  const sums = new Map<string, bigint>();
  for (const p of postings) sums.set(p.book.asset, (sums.get(p.book.asset) ?? 0n) + p.amount);
  for (const [asset, sum] of sums) {
    if (sum !== 0n) throw new LedgerError(`entry does not balance for ${asset}: ${sum}`);
  }
  const entryId = timeOrderedId();
  insertEntry(db).run(entryId, entry.orgId, entry.transactionId, entry.kind, entry.at);
  for (const p of postings) {
    if (p.amount === 0n) continue;
    const current = BigInt(readBook(db).get(p.book.book)?.balance ?? '0');
    const next = current + p.amount;
    if (next < 0n && WALLET_KINDS.includes(p.book.kind)) {
      throw new LedgerError(`book ${p.book.book} would go negative`);
    }
    upsertBook(db).run(
      p.book.book,
      p.book.orgId,
      p.book.kind,
      p.book.walletId,
      p.book.asset,
      next.toString(),
    );
    insertPosting(db).run(entryId, p.book.book, p.book.asset, p.amount.toString());
  }
  return entryId;
}

export type WalletAssetBalance = { posted: bigint; reserved: bigint; available: bigint };

type WalletBookRow = { kind: BookKind; asset: string; balance: string };

const walletBooks = prepared<[string], WalletBookRow>(
  'SELECT kind, asset, balance FROM ledger_books WHERE wallet_id = ?',
);

/** Posted, reserved and available per asset of one wallet (assets without postings absent). */
export function walletAssetBalances(
  db: Database.Database,
  walletId: string,
): Map<string, WalletAssetBalance> {
  return foldWalletBooks(walletBooks(db).all(walletId));
}

function foldWalletBooks(rows: readonly WalletBookRow[]): Map<string, WalletAssetBalance> {
  const out = new Map<string, WalletAssetBalance>();
  for (const row of rows) {
    const current = out.get(row.asset) ?? { posted: 0n, reserved: 0n, available: 0n };
    const amount = BigInt(row.balance);
    current.posted += amount;
    if (row.kind === 'WALLET_HELD') current.reserved += amount;
    if (row.kind === 'WALLET_FREE') current.available += amount;
    out.set(row.asset, current);
  }
  return out;
}

/** Balances summed over every wallet of a ledger account (wallets given by the caller). */
export function walletsAssetBalances(
  db: Database.Database,
  walletIds: readonly string[],
): Map<string, WalletAssetBalance> {
  const rows: WalletBookRow[] = [];
  for (const id of walletIds) rows.push(...walletBooks(db).all(id));
  return foldWalletBooks(rows);
}

export function availableOf(db: Database.Database, wallet: WalletRef, asset: string): bigint {
  const row = readBook(db).get(freeBook(wallet, asset).book);
  return BigInt(row?.balance ?? '0');
}

export type EntryPostingRow = {
  entryId: string;
  kind: EntryKind;
  createdAt: string;
  book: string;
  bookKind: BookKind;
  walletId: string | null;
  asset: string;
  amount: string;
};

const postingsOf = prepared<[string], EntryPostingRow>(
  `SELECT e.id AS entryId, e.kind AS kind, e.created_at AS createdAt, p.book AS book,
              b.kind AS bookKind, b.wallet_id AS walletId, p.asset AS asset, p.amount AS amount
         FROM ledger_entries e
         JOIN ledger_postings p ON p.entry_id = e.id
         JOIN ledger_books b ON b.book = p.book
    WHERE e.transaction_id = ?
    ORDER BY e.rowid, p.id`,
);

/** Every posting of the entries of one transaction, oldest first. */
export function postingsOfTransaction(
  db: Database.Database,
  transactionId: string,
): EntryPostingRow[] {
  return postingsOf(db).all(transactionId);
}

const postingsOfMany = prepared<[string], EntryPostingRow & { transactionId: string }>(
  `SELECT e.transaction_id AS transactionId, e.id AS entryId, e.kind AS kind,
          e.created_at AS createdAt, p.book AS book, b.kind AS bookKind, b.wallet_id AS walletId,
          p.asset AS asset, p.amount AS amount
     FROM ledger_entries e
     JOIN ledger_postings p ON p.entry_id = e.id
     JOIN ledger_books b ON b.book = p.book
    WHERE e.transaction_id IN (SELECT value FROM json_each(?))
    ORDER BY e.rowid, p.id`,
);

/**
 * The postings of several transactions in one query (a list page), each transaction's oldest
 * first as postingsOfTransaction gives them; a transaction without entries maps to [].
 */
export function postingsOfTransactions(
  db: Database.Database,
  transactionIds: readonly string[],
): Map<string, EntryPostingRow[]> {
  const byTransaction = new Map<string, EntryPostingRow[]>(transactionIds.map((id) => [id, []]));
  for (const { transactionId, ...posting } of postingsOfMany(db).all(
    JSON.stringify(transactionIds),
  )) {
    byTransaction.get(transactionId)?.push(posting);
  }
  return byTransaction;
}

/**
 * Checks every invariant of the ledger and returns the violations (empty when sound):
 * each entry balances per asset, each book equals the sum of its postings, no wallet book is
 * negative, and held books equal the open reservations of PENDING transactions.
 */
export function checkLedgerInvariants(db: Database.Database): string[] {
  const problems: string[] = [];
  const entrySums = new Map<string, bigint>();
  const bookSums = new Map<string, bigint>();
  const postings = db
    .prepare<[], { entryId: string; book: string; asset: string; amount: string }>(
      'SELECT entry_id AS entryId, book, asset, amount FROM ledger_postings',
    )
    .all();
  for (const p of postings) {
    const key = `${p.entryId}/${p.asset}`;
    entrySums.set(key, (entrySums.get(key) ?? 0n) + BigInt(p.amount));
    bookSums.set(p.book, (bookSums.get(p.book) ?? 0n) + BigInt(p.amount));
  }
  for (const [key, sum] of entrySums) {
    if (sum !== 0n) problems.push(`entry ${key} does not balance (${sum})`);
  }
  const books = db
    .prepare<[], { book: string; kind: BookKind; balance: string }>(
      'SELECT book, kind, balance FROM ledger_books',
    )
    .all();
  for (const b of books) {
    const balance = BigInt(b.balance);
    const sum = bookSums.get(b.book) ?? 0n;
    if (balance !== sum) problems.push(`book ${b.book} is ${balance} but postings sum to ${sum}`);
    if (balance < 0n && WALLET_KINDS.includes(b.kind)) {
      problems.push(`wallet book ${b.book} is negative (${balance})`);
    }
    bookSums.delete(b.book);
  }
  for (const book of bookSums.keys()) problems.push(`postings to unknown book ${book}`);
  problems.push(...checkReservations(db));
  return problems;
}

/**
 * Held books must equal what PENDING outgoing transactions reserve according to their own rows
 * (amount in its asset, reserved fee in the fee asset); a terminal transaction holds nothing.
 */
function checkReservations(db: Database.Database): string[] {
  const problems: string[] = [];
  const expected = new Map<string, bigint>();
  const add = (walletId: string, asset: string, amount: bigint) => {
    const book = heldBook({ id: walletId, orgId: '', chain: '' }, asset).book;
    expected.set(book, (expected.get(book) ?? 0n) + amount);
  };
  const pending = db
    .prepare<
      [],
      {
        walletId: string;
        asset: string;
        amount: string;
        feeAsset: string | null;
        fee: string | null;
      }
    >(
      `SELECT wallet_id AS walletId, asset, amount_atomic AS amount, fee_asset AS feeAsset,
              reserved_fee_atomic AS fee
         FROM transactions
        WHERE status = 'PENDING' AND is_source_leg = 1 AND type <> 'DEPOSIT'`,
    )
    .all();
  for (const row of pending) {
    add(row.walletId, row.asset, BigInt(row.amount));
    if (row.feeAsset !== null && row.fee !== null) add(row.walletId, row.feeAsset, BigInt(row.fee));
  }
  const held = db
    .prepare<[], { book: string; balance: string }>(
      "SELECT book, balance FROM ledger_books WHERE kind = 'WALLET_HELD'",
    )
    .all();
  for (const row of held) {
    const want = expected.get(row.book) ?? 0n;
    if (BigInt(row.balance) !== want) {
      problems.push(`held book ${row.book} is ${row.balance}, open reservations ${want}`);
    }
    expected.delete(row.book);
  }
  for (const [book, want] of expected) {
    if (want !== 0n) problems.push(`reservation of ${want} missing from ${book}`);
  }
  const terminal = db
    .prepare<[], { transactionId: string; book: string; net: string }>(
      `SELECT t.id AS transactionId, p.book AS book, p.amount AS net
         FROM ledger_postings p
         JOIN ledger_books b ON b.book = p.book
         JOIN ledger_entries e ON e.id = p.entry_id
         JOIN transactions t ON t.id = e.transaction_id
        WHERE b.kind = 'WALLET_HELD' AND t.status <> 'PENDING'`,
    )
    .all();
  const nets = new Map<string, bigint>();
  for (const row of terminal) {
    const key = `${row.transactionId} on ${row.book}`;
    nets.set(key, (nets.get(key) ?? 0n) + BigInt(row.net));
  }
  for (const [key, net] of nets) {
    if (net !== 0n) problems.push(`terminal transaction ${key} still holds ${net}`);
  }
  return problems;
}

/**
 * Tools that read a sandbox database directly enter through this module (the package's
 * `./ledger` entry): the bench explains the list's queries on the store it seeded.
 */
export { transactionListIndex, transactionListQuery } from './transactions-list';
