import type { Migration } from '@settlement/sqlite';

/** Organizations, API keys, nonces, idempotency records, server secrets, faults. */
export const migration001: Migration = {
  name: '001-core',
  sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE orgs (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        co_signer_online INTEGER NOT NULL DEFAULT 0,
        co_signer_last_seen_at TEXT,
        faults TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL
      );

      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id),
        public_key TEXT NOT NULL,
        scopes TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX api_keys_org ON api_keys(org_id);

      CREATE TABLE nonces (
        key_id TEXT NOT NULL,
        nonce TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (key_id, nonce)
      ) WITHOUT ROWID;
      CREATE INDEX nonces_expiry ON nonces(expires_at);

      CREATE TABLE idempotency_records (
        org_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status INTEGER NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (org_id, idempotency_key)
      ) WITHOUT ROWID;
      CREATE INDEX idempotency_expiry ON idempotency_records(created_at);

      CREATE TABLE org_asset_chains (
        org_id TEXT NOT NULL REFERENCES orgs(id),
        asset TEXT NOT NULL,
        chain TEXT NOT NULL,
        enabled INTEGER NOT NULL,
        PRIMARY KEY (org_id, asset, chain)
      ) WITHOUT ROWID;
    `,
};
