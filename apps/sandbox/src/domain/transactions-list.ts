import type { Db } from '../store/db';
import { assetCatalog } from './assets';
import { TRANSACTION_SELECT, type TransactionRow } from './transactions-store';
import type { ViewContext } from './transactions-view';

/**
 * Reads behind GET /api/v1/transactions and the account sub-list: every filter of the
 * interface, newest first (creation order), keyset over the monotonic row sequence.
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

export function viewContextFor(db: Db, orgId: string): ViewContext {
  const catalog = assetCatalog(db, orgId);
  return { decimalsOf: (asset) => catalog.find((a) => a.asset === asset)?.decimals ?? null };
}

/** One page of an org's transactions, newest first, after the row sequence `beforeSeq`. */
export function queryTransactions(
  db: Db,
  orgId: string,
  filters: TransactionFilters,
  beforeSeq: number | null,
  limit: number,
): TransactionRow[] {
  const where = ['org_id = ?'];
  const params: (string | number)[] = [orgId];
  for (const key of Object.keys(filters) as (keyof TransactionFilters)[]) {
    const value = filters[key];
    if (value === undefined) continue;
    where.push(COLUMN[key]);
    params.push(value);
  }
  if (beforeSeq !== null) {
    where.push('seq < ?');
    params.push(beforeSeq);
  }
  params.push(limit);
  return db
    .prepare<(string | number)[], TransactionRow>(
      `SELECT ${TRANSACTION_SELECT} FROM transactions WHERE ${where.join(' AND ')}
        ORDER BY seq DESC LIMIT ?`,
    )
    .all(...params);
}
