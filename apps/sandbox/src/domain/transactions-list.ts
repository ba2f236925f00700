import type { Db } from '../store/db';
import { preparedByShape } from '../store/prepared';
import { assetCatalog } from './assets';
import { TRANSACTION_SELECT, type TransactionRow } from './transactions-store';
import type { ViewContext } from './transactions-view';

/**
 * Reads behind GET /api/v1/transactions and the account sub-list: every filter of the
 * interface, newest first (created_at, then the insertion sequence), keyset over both.
 *
 * Each query names its index (INDEXED BY): the scope (a wallet, else an account, else the
 * org) refined by the first of status, type, asset, chain that is given, then the sort key; a
 * clientReference (unique per org) reads its own index. The index serves the sort and the date
 * range, so a page walks at most its rows plus those the other filters drop, never the table
 * and never a sort of the scope (migration 005; see docs/decisions).
 */

export type TransactionFilters = {
  accountId?: string;
  walletId?: string;
  clientReference?: string;
  chain?: string;
  asset?: string;
  status?: string;
  type?: string;
  createdFrom?: string;
  createdTo?: string;
};

/** Where the previous page ended. */
export type TransactionPosition = { createdAt: string; seq: number };

const COLUMN: Record<keyof TransactionFilters, string> = {
  accountId: 'account_id = ?',
  walletId: 'wallet_id = ?',
  clientReference: 'client_reference = ?',
  chain: 'chain = ?',
  asset: 'asset = ?',
  status: 'status = ?',
  type: 'type = ?',
  createdFrom: 'created_at >= ?',
  createdTo: 'created_at <= ?',
};

type Refinement = 'status' | 'type' | 'asset' | 'chain';
const REFINEMENTS: readonly Refinement[] = ['status', 'type', 'asset', 'chain'];

/** The index a query with these filters reads (every name exists: migrations 004 and 005). */
export function transactionListIndex(filters: TransactionFilters): string {
  if (filters.clientReference !== undefined) return 'transactions_client_reference';
  const scope =
    filters.walletId !== undefined ? 'wallet' : filters.accountId !== undefined ? 'account' : 'org';
  // A wallet lives on one chain: its chain filter keeps all of its rows or none.
  const refinement = REFINEMENTS.find(
    (r) => filters[r] !== undefined && !(scope === 'wallet' && r === 'chain'),
  );
  if (refinement !== undefined) return `transactions_${scope}_${refinement}`;
  return scope === 'org' ? 'transactions_org_created' : `transactions_${scope}`;
}

/** The SQL and parameters of one page (exported for the query-plan test and the bench). */
export function transactionListQuery(
  orgId: string,
  filters: TransactionFilters,
  before: TransactionPosition | null,
  limit: number,
): { sql: string; params: (string | number)[] } {
  const where = ['org_id = ?'];
  const params: (string | number)[] = [orgId];
  for (const key of Object.keys(COLUMN) as (keyof TransactionFilters)[]) {
    const value = filters[key];
    if (value === undefined) continue;
    where.push(COLUMN[key]);
    params.push(value);
  }
  if (before !== null) {
    where.push('(created_at, seq) < (?, ?)');
    params.push(before.createdAt, before.seq);
  }
  params.push(limit);
  return {
    sql: `SELECT ${TRANSACTION_SELECT} FROM transactions INDEXED BY ${transactionListIndex(filters)}
      WHERE ${where.join(' AND ')} ORDER BY created_at DESC, seq DESC LIMIT ?`,
    params,
  };
}

const page = preparedByShape<(string | number)[], TransactionRow>();

export function viewContextFor(db: Db, orgId: string): ViewContext {
  const catalog = assetCatalog(db, orgId);
  return { decimalsOf: (asset) => catalog.find((a) => a.asset === asset)?.decimals ?? null };
}

/** One page of an org's transactions, newest first, after `before` (the previous page's last row). */
export function queryTransactions(
  db: Db,
  orgId: string,
  filters: TransactionFilters,
  before: TransactionPosition | null,
  limit: number,
): TransactionRow[] {
  const { sql, params } = transactionListQuery(orgId, filters, before, limit);
  return page(db, sql).all(...params);
}
