import type { Migration } from '@settlement/sqlite';

/**
 * The transaction list reads newest first, keyset over (created_at, seq), inside one scope (the
 * org, a wallet or an account) optionally refined by one more equality filter. Each index below
 * is such a scope and refinement followed by the sort key, so a page is a short walk down one
 * index whatever the table holds (domain/transactions-list.ts names the index per query). The
 * plain scopes were indexed by 004 already; a wallet has one chain, so it needs no chain index.
 */
export const migration005: Migration = {
  name: '005-transaction-list-indexes',
  sql: `
    CREATE INDEX transactions_org_status ON transactions (org_id, status, created_at, seq);
    CREATE INDEX transactions_org_type ON transactions (org_id, type, created_at, seq);
    CREATE INDEX transactions_org_asset ON transactions (org_id, asset, created_at, seq);
    CREATE INDEX transactions_org_chain ON transactions (org_id, chain, created_at, seq);
    CREATE INDEX transactions_wallet_status ON transactions (wallet_id, status, created_at, seq);
    CREATE INDEX transactions_wallet_type ON transactions (wallet_id, type, created_at, seq);
    CREATE INDEX transactions_wallet_asset ON transactions (wallet_id, asset, created_at, seq);
    CREATE INDEX transactions_account_status ON transactions (account_id, status, created_at, seq);
    CREATE INDEX transactions_account_type ON transactions (account_id, type, created_at, seq);
    CREATE INDEX transactions_account_asset ON transactions (account_id, asset, created_at, seq);
    CREATE INDEX transactions_account_chain ON transactions (account_id, chain, created_at, seq);
  `,
};
