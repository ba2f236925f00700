import type { Migration } from '@settlement/sqlite';

/**
 * What a block steps (domain/transactions-store.ts `due`): PENDING rows by stage, and the
 * unsigned ones by creation time against the Co-Signer deadline. Without it every block read
 * every PENDING row, most of them waiting for a signature, so a burst cost each block more.
 */
export const migration006: Migration = {
  name: '006-due-transactions',
  sql: `
    CREATE INDEX transactions_due ON transactions (stage, created_at_ms) WHERE status = 'PENDING';
  `,
};
