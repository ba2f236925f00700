import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  ApprovalRequirementSchema,
  ChainSchema,
  PolicyDecisionSchema,
  WITHDRAWAL_REQUEST_LIST_MAX,
  WithdrawalRequestStatusSchema,
  type ApprovalRequirement,
  type PolicyDecision,
  type WithdrawalRequest,
  type WithdrawalRequestStatus,
} from '@settlement/protocol';
import type { Sql, SqlParam } from '../store/sql';

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

type ApproveOutcome =
  | { kind: 'unknown' }
  | { kind: 'not-pending'; request: StoredRequest }
  | { kind: 'already-approved'; request: StoredRequest }
  | { kind: 'approved'; request: StoredRequest; isLast: boolean };

const iso = (at: number) => new Date(at).toISOString();

const IdSchema = z.object({ id: z.string() });

export type RequestStore = {
  get(id: string): Promise<StoredRequest | null>;
  byOperationId(operationId: string): Promise<StoredRequest | null>;
  list(status: WithdrawalRequestStatus | null, limit?: number): Promise<StoredRequest[]>;
  /** AWAITING_APPROVAL and APPROVED: they count against limits until submitted or closed. */
  open(): Promise<StoredRequest[]>;
  /** A new request; the existing one when the operation id was already used. */
  create(input: NewRequest): Promise<{ request: StoredRequest; isNew: boolean }>;
  /**
   * Records one approval; the approval that reaches the quorum moves the request to APPROVED
   * in the same transaction, so exactly one caller (in any process) learns `isLast`.
   */
  approve(id: string, operator: string, role: string): Promise<ApproveOutcome>;
  reject(id: string, operator: string, reason: string): Promise<boolean>;
  cancel(id: string): Promise<boolean>;
  markSubmitted(id: string, transactionId: string, correlationId: string | null): Promise<boolean>;
  markFailed(id: string, failure: { code: string; message: string }): Promise<boolean>;
  /** APPROVED -> AWAITING_APPROVAL under a newer policy that asks for more approvals. */
  rejudge(id: string, decision: PolicyDecision, required: ApprovalRequirement): Promise<boolean>;
  /** AWAITING_APPROVAL past its expiry -> EXPIRED; the ids that changed. */
  expireDue(): Promise<string[]>;
  approvedNotSubmitted(): Promise<StoredRequest[]>;
};

const TRANSITION =
  'UPDATE withdrawal_requests SET status = ?, updated_at = ? WHERE id = ? AND status = ?';

/**
 * Withdrawal requests and their approvals. Every state change is one conditional UPDATE (or
 * one transaction holding the request's row), so two approvals, a double click or two
 * replicas never both win.
 */
export function createRequestStore(db: Sql, now: () => number = Date.now): RequestStore {
  async function toRequest(sql: Sql, row: unknown): Promise<StoredRequest | null> {
    if (row === undefined) return null;
    const r = RowSchema.parse(row);
    const approvals = (
      await sql.all(
        'SELECT operator, role, at FROM withdrawal_approvals WHERE request_id = ? ORDER BY at, operator',
        [r.id],
      )
    ).map((a) => {
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

  async function requests(text: string, params: SqlParam[]): Promise<StoredRequest[]> {
    const rows = await db.all(text, params);
    const out: StoredRequest[] = [];
    for (const row of rows) {
      const request = await toRequest(db, row);
      if (!request) throw new Error('unreachable');
      out.push(request);
    }
    return out;
  }

  const getIn = async (sql: Sql, id: string, lock = false) =>
    toRequest(
      sql,
      await sql.get(
        `SELECT * FROM withdrawal_requests WHERE id = ?${lock && sql.dialect === 'postgres' ? ' FOR UPDATE' : ''}`,
        [id],
      ),
    );
  const byOperationIn = async (sql: Sql, operationId: string) =>
    toRequest(
      sql,
      await sql.get('SELECT * FROM withdrawal_requests WHERE operation_id = ?', [operationId]),
    );
  const listByStatus = (status: string, limit: number) =>
    requests(
      'SELECT * FROM withdrawal_requests WHERE status = ? ORDER BY created_at DESC, id LIMIT ?',
      [status, limit],
    );

  return {
    get: (id) => getIn(db, id),
    byOperationId: (operationId) => byOperationIn(db, operationId),
    list: (status, limit = WITHDRAWAL_REQUEST_LIST_MAX) =>
      status
        ? listByStatus(status, limit)
        : requests('SELECT * FROM withdrawal_requests ORDER BY created_at DESC, id LIMIT ?', [
            limit,
          ]),
    open: () =>
      requests(
        "SELECT * FROM withdrawal_requests WHERE status IN ('AWAITING_APPROVAL', 'APPROVED')",
        [],
      ),
    create: (input) =>
      db.transaction(async (tx) => {
        const at = now();
        const changes = await tx.run(
          `INSERT INTO withdrawal_requests (id, operation_id, requester, status, wallet_id,
             account_id, chain, asset, to_address, amount_atomic, client_reference, body,
             policy_version, decision, approvals_required, created_at, updated_at, expires_at)
           VALUES (?, ?, ?, 'AWAITING_APPROVAL', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
          [
            `wr_${randomUUID()}`,
            input.operationId,
            input.requester,
            input.walletId,
            input.accountId,
            input.chain,
            input.asset,
            input.toAddress,
            input.amountAtomic,
            input.clientReference,
            input.body,
            input.decision.policyVersion,
            JSON.stringify(input.decision),
            JSON.stringify(input.approvalsRequired),
            at,
            at,
            input.expiresAt,
          ],
        );
        const request = await byOperationIn(tx, input.operationId);
        if (!request) throw new Error('withdrawal request vanished');
        return { request, isNew: changes > 0 };
      }),
    approve: (id, operator, role) =>
      db.transaction(async (tx): Promise<ApproveOutcome> => {
        // The request's row is held (PostgreSQL: FOR UPDATE; SQLite: the write lock) while the
        // approvals are counted, so two approvals at the same instant count each other.
        const request = await getIn(tx, id, true);
        if (!request) return { kind: 'unknown' };
        if (request.approvals.some((a) => a.operator === operator))
          return { kind: 'already-approved', request };
        if (request.status !== 'AWAITING_APPROVAL') return { kind: 'not-pending', request };
        const at = now();
        await tx.run(
          `INSERT INTO withdrawal_approvals (request_id, operator, role, at) VALUES (?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
          [id, operator, role, at],
        );
        const count = request.approvals.length + 1;
        const isLast =
          count >= request.approvalsRequired.count &&
          (await tx.run(TRANSITION, ['APPROVED', at, id, 'AWAITING_APPROVAL'])) > 0;
        const updated = await getIn(tx, id);
        if (!updated) throw new Error('withdrawal request vanished');
        return { kind: 'approved', request: updated, isLast };
      }),
    reject: async (id, operator, reason) =>
      (await db.run(
        `UPDATE withdrawal_requests SET status = 'REJECTED', rejection = ?, updated_at = ?
         WHERE id = ? AND status = 'AWAITING_APPROVAL'`,
        [JSON.stringify({ operator, reason, at: iso(now()) }), now(), id],
      )) > 0,
    cancel: async (id) =>
      (await db.run(TRANSITION, ['CANCELLED', now(), id, 'AWAITING_APPROVAL'])) > 0,
    markSubmitted: async (id, transactionId, correlationId) =>
      (await db.run(
        `UPDATE withdrawal_requests SET status = 'SUBMITTED', transaction_id = ?,
           correlation_id = ?, updated_at = ? WHERE id = ? AND status = 'APPROVED'`,
        [transactionId, correlationId, now(), id],
      )) > 0,
    markFailed: async (id, failure) =>
      (await db.run(
        `UPDATE withdrawal_requests SET status = 'FAILED', failure = ?, updated_at = ?
         WHERE id = ? AND status IN ('AWAITING_APPROVAL', 'APPROVED')`,
        [JSON.stringify(failure), now(), id],
      )) > 0,
    rejudge: async (id, decision, required) =>
      (await db.run(
        `UPDATE withdrawal_requests SET status = 'AWAITING_APPROVAL', policy_version = ?,
           decision = ?, approvals_required = ?, updated_at = ? WHERE id = ? AND status = 'APPROVED'`,
        [decision.policyVersion, JSON.stringify(decision), JSON.stringify(required), now(), id],
      )) > 0,
    async expireDue() {
      const at = now();
      const rows = await db.all(
        `UPDATE withdrawal_requests SET status = 'EXPIRED', updated_at = ?
         WHERE status = 'AWAITING_APPROVAL' AND expires_at <= ? RETURNING id`,
        [at, at],
      );
      return rows.map((row) => IdSchema.parse(row).id);
    },
    approvedNotSubmitted: () => listByStatus('APPROVED', 1000),
  };
}

/** The public shape (without the stored body). */
export function publicRequest(request: StoredRequest): WithdrawalRequest {
  const { body, createdAtMs, ...rest } = request;
  return rest;
}
