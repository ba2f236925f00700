import type { Sql } from '../store/sql';
import { heldDecision } from './decisions';

const HELD_DECISION = heldDecision();

/**
 * `count` submitted withdrawal requests in one statement, for query plans at size: request i
 * has id `wr-i`, operation `op-i`, transaction `tx-i`, correlation `corr-i`, reference `ref-i`,
 * destination `T-to-i`, and was created at i.
 */
export async function insertWithdrawalRequests(sql: Sql, count: number): Promise<void> {
  await sql.run(
    `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO withdrawal_requests (id, operation_id, requester, status, wallet_id, account_id,
       chain, asset, to_address, amount_atomic, client_reference, body, policy_version,
       decision, approvals_required, transaction_id, correlation_id, created_at, updated_at,
       expires_at)
     SELECT 'wr-' || i, 'op-' || i, 'treasury', 'SUBMITTED', 'wal-1', 'acc-1', 'tron:nile',
       'TRX', 'T-to-' || i, '1000000', 'ref-' || i, ?, 1, ?, ?, 'tx-' || i,
       'corr-' || i, i, i, i FROM n`,
    [
      count,
      new Uint8Array([123, 125]),
      JSON.stringify(HELD_DECISION),
      JSON.stringify(HELD_DECISION.approvals),
    ],
  );
}

/**
 * `count` ACTIVE address-book entries in one statement, for query plans at size: entry i has
 * id `ab-i`, address `T-book-i` on tron:nile, and was created at i.
 */
export async function insertAddressBookEntries(sql: Sql, count: number): Promise<void> {
  await sql.run(
    `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO address_book (id, chain, address, label, status, created_by, created_at)
     SELECT 'ab-' || i, 'tron:nile', 'T-book-' || i, 'Vendor ' || i, 'ACTIVE', 'a', i FROM n`,
    [count],
  );
}
