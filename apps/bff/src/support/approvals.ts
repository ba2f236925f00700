import type { WithdrawalRequest } from '@settlement/protocol';
import { createRequestStore, publicRequest } from '../governance/request-store';
import { z } from 'zod';
import type { Sql } from '../store/sql';

export type ApprovalLookup = (q: string) => Promise<WithdrawalRequest[]>;

const MAX_REQUESTS = 20;
const IdSchema = z.object({ id: z.string() });

/**
 * Withdrawal requests (governance) that `q` names: their id, operation id, transaction id,
 * correlation id, clientReference or destination address. Read-only over governance's table
 * through its own store.
 */
export function createApprovalLookup(db: Sql): ApprovalLookup {
  const store = createRequestStore(db);
  return async (q) => {
    const rows = await db.all(
      `SELECT id FROM withdrawal_requests WHERE id = ? OR operation_id = ? OR transaction_id = ?
         OR correlation_id = ? OR client_reference = ? OR to_address = ?
       ORDER BY created_at LIMIT ${MAX_REQUESTS}`,
      [q, q, q, q, q, q],
    );
    const found: WithdrawalRequest[] = [];
    for (const row of rows) {
      const request = await store.get(IdSchema.parse(row).id);
      if (request) found.push(publicRequest(request));
    }
    return found;
  };
}
