import type { Migration } from '@settlement/sqlite';

/** Ledger accounts, wallets and the per-org MPC key. */
export const migration003: Migration = {
  name: '003-accounts-wallets-mpc',
  sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        name TEXT NOT NULL,
        name_folded TEXT NOT NULL,
        external_id TEXT,
        metadata TEXT,
        correlation_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (org_id, external_id)
      );
      CREATE INDEX accounts_org_created ON accounts(org_id, created_at, id);

      CREATE TABLE wallets (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        account_id TEXT NOT NULL REFERENCES accounts(id),
        chain TEXT NOT NULL,
        address TEXT NOT NULL,
        public_key TEXT NOT NULL,
        status TEXT NOT NULL,
        correlation_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (chain, address)
      );
      CREATE INDEX wallets_org_created ON wallets(org_id, created_at, id);
      CREATE INDEX wallets_org_updated ON wallets(org_id, updated_at, id);
      CREATE INDEX wallets_account ON wallets(account_id);

      CREATE TABLE mpc_keys (
        org_id TEXT PRIMARY KEY REFERENCES orgs(id),
        key_id TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL,
        online_blocks INTEGER NOT NULL DEFAULT 0,
        idempotency_key TEXT NOT NULL,
        correlation_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        activated_at TEXT
      );
    `,
};
