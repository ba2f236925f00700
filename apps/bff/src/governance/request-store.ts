import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  ApprovalRequirementSchema,
  ChainSchema,
  PolicyDecisionSchema,
  WithdrawalRequestStatusSchema,
  type ApprovalRequirement,
  type PolicyDecision,
  type WithdrawalRequest,
  type WithdrawalRequestStatus,
} from '@settlement/protocol';
import type { Db } from '../store/db';

const RowSchema = z.object({
  id: z.string(),
  operation_id: z.string(),
  requester: z.string(),
  status: WithdrawalRequestStatusSchema,
  wallet_id: z.string(),
  account_id: z.string(),
  chain: ChainSchema,
  asset: z.string(),
  to_address: z.string(),
  amount_atomic: z.string(),
  client_reference: z.string().nullable(),
  body: z.instanceof(Buffer),
  policy_version: z.number().int(),
  decision: z.string(),
  approvals_required: z.string(),
  rejection: z.string().nullable(),
  transaction_id: z.string().nullable(),
  correlation_id: z.string().nullable(),
  failure: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  expires_at: z.number().int(),
});

const ApprovalRowSchema = z.object({
  operator: z.string(),
  role: z.string(),
  at: z.number().int(),
});

const RejectionSchema = z.object({ operator: z.string(), reason: z.string(), at: z.string() });
const FailureSchema = z.object({ code: z.string(), message: z.string() });

/** A stored request: the public shape plus the exact bytes the requester sent. */
export type StoredRequest = WithdrawalRequest & { body: Uint8Array; createdAtMs: number };

export type NewRequest = {
  operationId: string;
  requester: string;
  walletId: string;
  accountId: string;
  chain: WithdrawalRequest['chain'];
  asset: string;
  toAddress: string;
  amountAtomic: string;
  clientReference: string | null;
  body: Uint8Array;
  decision: PolicyDecision;
  approvalsRequired: ApprovalRequirement;
  expiresAt: number;
};

export type ApproveOutcome =
  | { kind: 'unknown' }
  | { kind: 'not-pending'; request: StoredRequest }
  | { kind: 'already-approved'; request: StoredRequest }
  | { kind: 'approved'; request: StoredRequest; isLast: boolean };

const iso = (at: number) => new Date(at).toISOString();

export type RequestStore = ReturnType<typeof createRequestStore>;

/**
 * Withdrawal requests and their approvals. Every state change is one conditional UPDATE (or
 * one transaction), so two approvals, a double click or two processes never both win.
 */
export function createRequestStore(db: Db, now: () => number = Date.now) {
  const byId = db.prepare('SELECT * FROM withdrawal_requests WHERE id = ?');
  const byOperation = db.prepare('SELECT * FROM withdrawal_requests WHERE operation_id = ?');
  const approvalsOf = db.prepare(
    'SELECT operator, role, at FROM withdrawal_approvals WHERE request_id = ? ORDER BY at, operator',
  );
  const listAll = db.prepare(
    'SELECT * FROM withdrawal_requests ORDER BY created_at DESC, id LIMIT ?',
  );
  const listByStatus = db.prepare(
    'SELECT * FROM withdrawal_requests WHERE status = ? ORDER BY created_at DESC, id LIMIT ?',
  );
  const open = db.prepare(
    "SELECT * FROM withdrawal_requests WHERE status IN ('AWAITING_APPROVAL', 'APPROVED')",
  );
  const insert = db.prepare(
    `INSERT OR IGNORE INTO withdrawal_requests (id, operation_id, requester, status, wallet_id,
       account_id, chain, asset, to_address, amount_atomic, client_reference, body,
       policy_version, decision, approvals_required, created_at, updated_at, expires_at)
     VALUES (?, ?, ?, 'AWAITING_APPROVAL', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertApproval = db.prepare(
    'INSERT OR IGNORE INTO withdrawal_approvals (request_id, operator, role, at) VALUES (?, ?, ?, ?)',
  );
  const transition = db.prepare(
    `UPDATE withdrawal_requests SET status = ?, updated_at = ? WHERE id = ? AND status = ?`,
  );
  const rejectStmt = db.prepare(
    `UPDATE withdrawal_requests SET status = 'REJECTED', rejection = ?, updated_at = ?
     WHERE id = ? AND status = 'AWAITING_APPROVAL'`,
  );
  const submitted = db.prepare(
    `UPDATE withdrawal_requests SET status = 'SUBMITTED', transaction_id = ?, correlation_id = ?,
       updated_at = ? WHERE id = ? AND status = 'APPROVED'`,
  );
  const failed = db.prepare(
    `UPDATE withdrawal_requests SET status = 'FAILED', failure = ?, updated_at = ?
     WHERE id = ? AND status IN ('AWAITING_APPROVAL', 'APPROVED')`,
  );
  const rejudged = db.prepare(
    `UPDATE withdrawal_requests SET status = 'AWAITING_APPROVAL', policy_version = ?, decision = ?,
       approvals_required = ?, updated_at = ? WHERE id = ? AND status = 'APPROVED'`,
  );
  const expire = db.prepare(
    `UPDATE withdrawal_requests SET status = 'EXPIRED', updated_at = ?
     WHERE status = 'AWAITING_APPROVAL' AND expires_at <= ? RETURNING id`,
  );

  function toRequest(row: unknown): StoredRequest | null {
    if (row === undefined) return null;
    const r = RowSchema.parse(row);
    const approvals = approvalsOf.all(r.id).map((a) => {
      const approval = ApprovalRowSchema.parse(a);
      return { operator: approval.operator, role: approval.role, at: iso(approval.at) };
    });
    return {
      id: r.id,
      status: r.status,
      operationId: r.operation_id,
      requester: r.requester,
      walletId: r.wallet_id,
      accountId: r.account_id,
      chain: r.chain,
      asset: r.asset,
      toAddress: r.to_address,
      amountAtomic: r.amount_atomic,
      clientReference: r.client_reference,
      policyVersion: r.policy_version,
      decision: PolicyDecisionSchema.parse(JSON.parse(r.decision)),
      approvalsRequired: ApprovalRequirementSchema.parse(JSON.parse(r.approvals_required)),
      approvals,
      rejection: r.rejection === null ? null : RejectionSchema.parse(JSON.parse(r.rejection)),
      transactionId: r.transaction_id,
      correlationId: r.correlation_id,
      failure: r.failure === null ? null : FailureSchema.parse(JSON.parse(r.failure)),
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
      expiresAt: iso(r.expires_at),
      body: new Uint8Array(r.body),
      createdAtMs: r.created_at,
    };
  }

  function requests(rows: unknown[]): StoredRequest[] {
    return rows.map((row) => {
      const request = toRequest(row);
      if (!request) throw new Error('unreachable');
      return request;
    });
  }

  const get = (id: string) => toRequest(byId.get(id));

  return {
    get,
    byOperationId: (operationId: string) => toRequest(byOperation.get(operationId)),
    list: (status: WithdrawalRequestStatus | null, limit = 200) =>
      requests(status ? listByStatus.all(status, limit) : listAll.all(limit)),
    /** AWAITING_APPROVAL and APPROVED: they count against limits until submitted or closed. */
    open: () => requests(open.all()),
    /** A new request; the existing one when the operation id was already used. */
    create: db.transaction((input: NewRequest): { request: StoredRequest; isNew: boolean } => {
      const at = now();
      const id = `wr_${randomUUID()}`;
      const result = insert.run(
        id,
        input.operationId,
        input.requester,
        input.walletId,
        input.accountId,
        input.chain,
        input.asset,
        input.toAddress,
        input.amountAtomic,
        input.clientReference,
        Buffer.from(input.body),
        input.decision.policyVersion,
        JSON.stringify(input.decision),
        JSON.stringify(input.approvalsRequired),
        at,
        at,
        input.expiresAt,
      );
      const request = toRequest(byOperation.get(input.operationId));
      if (!request) throw new Error('withdrawal request vanished');
      return { request, isNew: result.changes > 0 };
    }),
    /**
     * Records one approval; the approval that reaches the quorum moves the request to APPROVED
     * in the same transaction, so exactly one caller learns `isLast`.
     */
    approve: db.transaction((id: string, operator: string, role: string): ApproveOutcome => {
      const request = get(id);
      if (!request) return { kind: 'unknown' };
      if (request.approvals.some((a) => a.operator === operator))
        return { kind: 'already-approved', request };
      if (request.status !== 'AWAITING_APPROVAL') return { kind: 'not-pending', request };
      const at = now();
      insertApproval.run(id, operator, role, at);
      const count = request.approvals.length + 1;
      const isLast =
        count >= request.approvalsRequired.count &&
        transition.run('APPROVED', at, id, 'AWAITING_APPROVAL').changes > 0;
      const updated = get(id);
      if (!updated) throw new Error('withdrawal request vanished');
      return { kind: 'approved', request: updated, isLast };
    }),
    reject: (id: string, operator: string, reason: string) =>
      rejectStmt.run(JSON.stringify({ operator, reason, at: iso(now()) }), now(), id).changes > 0,
    cancel: (id: string) => transition.run('CANCELLED', now(), id, 'AWAITING_APPROVAL').changes > 0,
    markSubmitted: (id: string, transactionId: string, correlationId: string | null) =>
      submitted.run(transactionId, correlationId, now(), id).changes > 0,
    markFailed: (id: string, failure: { code: string; message: string }) =>
      failed.run(JSON.stringify(failure), now(), id).changes > 0,
    /** APPROVED -> AWAITING_APPROVAL under a newer policy that asks for more approvals. */
    rejudge: (id: string, decision: PolicyDecision, required: ApprovalRequirement) =>
      rejudged.run(
        decision.policyVersion,
        JSON.stringify(decision),
        JSON.stringify(required),
        now(),
        id,
      ).changes > 0,
    /** AWAITING_APPROVAL past its expiry -> EXPIRED; the ids that changed. */
    expireDue: (): string[] => {
      const at = now();
      return expire.all(at, at).map((row) => z.object({ id: z.string() }).parse(row).id);
    },
    approvedNotSubmitted: () => requests(listByStatus.all('APPROVED', 1000)),
  };
}

/** The public shape (without the stored body). */
export function publicRequest(request: StoredRequest): WithdrawalRequest {
  const { body, createdAtMs, ...rest } = request;
  return rest;
}
