import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb, type Db } from '../store/db';
import {
  transactionListIndex,
  transactionListQuery,
  type TransactionFilters,
} from './transactions-list';

/**
 * Every filter combination of the transaction list (2^9, with and without a cursor) must read
 * one index in the order of the sort: a full SCAN of transactions, or a sort of what a scope
 * holds (a TEMP B-TREE), would make a page's cost grow with the store (1,000,000 rows).
 */

const VALUES: Required<TransactionFilters> = {
  accountId: 'acc',
  walletId: 'wal',
  clientReference: 'ref',
  chain: 'tron:nile',
  asset: 'TRX',
  status: 'PENDING',
  type: 'WITHDRAWAL',
  createdFrom: '2030-01-01T00:00:00.000Z',
  createdTo: '2030-12-31T00:00:00.000Z',
};
const KEYS = Object.keys(VALUES) as (keyof TransactionFilters)[];

function combination(mask: number): TransactionFilters {
  const filters: TransactionFilters = {};
  KEYS.forEach((key, bit) => {
    if ((mask & (1 << bit)) !== 0) filters[key] = VALUES[key];
  });
  return filters;
}

let db: Db;

beforeAll(() => {
  db = openDb(':memory:');
  migrate(db);
});

afterAll(() => {
  db.close();
});

function planOf(filters: TransactionFilters, hasCursor: boolean): string[] {
  const { sql, params } = transactionListQuery(
    'org',
    filters,
    hasCursor ? { createdAt: '2030-06-01T00:00:00.000Z', seq: 1000 } : null,
    51,
  );
  return db
    .prepare<(string | number)[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...params)
    .map((row) => row.detail);
}

describe('transaction list query plans', () => {
  it('search one index in sort order for every filter combination, with and without a cursor', () => {
    const bad: string[] = [];
    for (let mask = 0; mask < 1 << KEYS.length; mask += 1) {
      const filters = combination(mask);
      const index = transactionListIndex(filters);
      for (const hasCursor of [false, true]) {
        const plan = planOf(filters, hasCursor);
        const isUnique = index === 'transactions_client_reference';
        const isGood =
          plan.some((line) => line.startsWith(`SEARCH transactions USING INDEX ${index} (`)) &&
          !plan.some((line) => line.startsWith('SCAN transactions')) &&
          // At most one row matches a clientReference: sorting it costs nothing.
          (isUnique || !plan.some((line) => line.includes('TEMP B-TREE')));
        if (!isGood)
          bad.push(`${JSON.stringify(filters)} cursor=${hasCursor}: ${plan.join(' | ')}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('constrain the index by the date range and the cursor, not only by the scope', () => {
    const plan = planOf(
      { walletId: 'wal', status: 'FAILED', createdFrom: VALUES.createdFrom },
      true,
    );
    expect(plan).toEqual([
      expect.stringMatching(
        /^SEARCH transactions USING INDEX transactions_wallet_status \(wallet_id=\? AND status=\? AND \(?created_at/,
      ),
    ]);
  });

  it('refine a scope by status, then type, asset and chain (a wallet has one chain)', () => {
    expect(transactionListIndex({})).toBe('transactions_org_created');
    expect(transactionListIndex({ accountId: 'a' })).toBe('transactions_account');
    expect(transactionListIndex({ accountId: 'a', walletId: 'w' })).toBe('transactions_wallet');
    expect(transactionListIndex({ walletId: 'w', chain: 'tron:nile' })).toBe('transactions_wallet');
    expect(transactionListIndex({ walletId: 'w', type: 'DEPOSIT', status: 'FAILED' })).toBe(
      'transactions_wallet_status',
    );
    expect(transactionListIndex({ asset: 'USDT', chain: 'tron:nile' })).toBe(
      'transactions_org_asset',
    );
    expect(transactionListIndex({ accountId: 'a', chain: 'tron:nile' })).toBe(
      'transactions_account_chain',
    );
    expect(transactionListIndex({ clientReference: 'r', walletId: 'w' })).toBe(
      'transactions_client_reference',
    );
  });
});
