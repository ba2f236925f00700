import type { WithdrawalRequest } from '@settlement/protocol';
import { createRequestStore } from '../governance/request-store';
import type { Db } from '../store/db';

export type ApprovalLookup = (q: string) => WithdrawalRequest[];

const MAX_REQUESTS = 20;

/**
 * Withdrawal requests (governance) that `q` names: their id, operation id, transaction id,
 * correlation id, clientReference or destination address. Read-only over governance's table
 * through its own store; an empty answer on a database that has no such table.
 */
export function createApprovalLookup(db: Db): ApprovalLookup {
  const hasTable =
    db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'withdrawal_requests'")
      .get() !== undefined;
  if (!hasTable) return () => [];
  const store = createRequestStore(db);
  const find = db.prepare<Record<string, unknown>, { id: string }>(
    `SELECT id FROM withdrawal_requests WHERE id = @q OR operation_id = @q OR transaction_id = @q
       OR correlation_id = @q OR client_reference = @q OR to_address = @q
     ORDER BY created_at LIMIT ${MAX_REQUESTS}`,
  );
  return (q) =>
    find
      .all({ q })
      .map((row) => store.get(row.id))
      .filter((request): request is NonNullable<typeof request> => request !== null)
      .map(({ body: _body, createdAtMs: _createdAtMs, ...request }) => request);
}
