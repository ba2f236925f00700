import { randomUUID } from 'node:crypto';
import {
  CreateTransactionRequestSchema,
  RejectRequestSchema,
  WithdrawalRequestStatusSchema,
  parseErrorEnvelope,
  tronAddressProblem,
  type PolicyDecision,
  type WithdrawalRequest,
} from '@settlement/protocol';
import { HttpError } from '../errors';
import { clientReferenceFor, isInProgress, type IdempotentResult } from '../services/idempotent';
import { matchOperation, type Operation } from '../services/operations';
import type { Session } from '../store/sessions';
import type { GovernanceContext } from './context';
import { publicRequest, type StoredRequest } from './request-store';

const TX_PATH = '/api/v1/transactions';
const HOUR_MS = 3_600_000;

function transactionsCreate(): Operation {
  const operation = matchOperation('POST', TX_PATH);
  if (!operation) throw new Error('transactions.create is not in the allowlist');
  return operation;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new HttpError('VALIDATION_ERROR', 'The body is not valid JSON.');
  }
}

export type SubmitOutcome =
  { kind: 'upstream'; result: IdempotentResult } | { kind: 'request'; request: WithdrawalRequest };

export type Withdrawals = ReturnType<typeof createWithdrawals>;

/**
 * Withdrawals under the policy: every `POST /bff/api/v1/transactions` is judged first; requests
 * that need approvals wait here and go upstream exactly once, with the requester's operation id
 * as idempotency key, when the last approval arrives (or when a sweep resumes them).
 */
export function createWithdrawals(
  ctx: GovernanceContext,
  hooks: {
    /** An APPROVED request could not be sent because the upstream did not answer. */
    onDeferred?: () => void;
  } = {},
) {
  const { services, requests } = ctx;
  const operation = transactionsCreate();
  const finalizing = new Map<string, Promise<void>>();
  const pathsOf = (id: string) => ['/bff/withdrawal-requests', `/bff/withdrawal-requests/${id}`];

  function changed(id: string): void {
    ctx.notify('withdrawal-requests', pathsOf(id));
  }

  async function expire(): Promise<void> {
    for (const id of await requests.expireDue()) {
      await ctx.audit({
        operator: null,
        action: 'withdrawal-request.expire',
        outcome: 'expired',
        resourceId: id,
      });
      changed(id);
    }
  }

  async function fail(request: StoredRequest, code: string, message: string): Promise<void> {
    if (!(await requests.markFailed(request.id, { code, message }))) return;
    await ctx.audit({
      operator: null,
      action: 'withdrawal-request.submit',
      outcome: `failed ${code}`,
      operationId: request.operationId,
      resourceId: request.id,
      detail: message,
    });
    changed(request.id);
  }

  async function requireRequest(id: string): Promise<StoredRequest> {
    await expire();
    const request = await requests.get(id);
    if (!request) throw new HttpError('RESOURCE_NOT_FOUND', `No withdrawal request ${id}.`);
    return request;
  }

  function requireApprover(request: StoredRequest, session: Session): void {
    // Self-approval first: a requester always learns that, whatever their role.
    if (request.requester === session.username) {
      throw new HttpError('SELF_APPROVAL_FORBIDDEN', undefined, [{ requestId: request.id }]);
    }
    const roles: readonly string[] = request.approvalsRequired.fromRoles;
    if (session.role === 'support' || !roles.includes(session.role)) {
      throw new HttpError(
        'FORBIDDEN',
        `Approving this request needs the role ${request.approvalsRequired.fromRoles.join(' or ')}.`,
      );
    }
  }

  /** Re-checks (policy version, limits, wallet) and sends an APPROVED request upstream once. */
  async function finalizeOnce(id: string, requestId: string): Promise<void> {
    const request = await requests.get(id);
    if (!request || request.status !== 'APPROVED') return;
    let decision: PolicyDecision;
    try {
      const judgement = await ctx.judge({
        walletId: request.walletId,
        asset: request.asset,
        toAddress: request.toAddress,
        amountAtomic: request.amountAtomic,
        operator: null,
        excludeRequestId: request.id,
        excludeClientReference: request.clientReference,
      });
      if (judgement.wallet.status !== 'ACTIVE') {
        await fail(request, 'WALLET_NOT_ACTIVE', `The wallet is ${judgement.wallet.status}.`);
        return;
      }
      decision = judgement.decision;
    } catch (error) {
      if (error instanceof HttpError && error.code === 'RESOURCE_NOT_FOUND') {
        await fail(request, 'RESOURCE_NOT_FOUND', error.message);
        return;
      }
      // The upstream could not be asked: the request stays APPROVED and a sweep resumes it.
      services.logger.warn({ err: error, withdrawalRequest: id }, 'approval re-check deferred');
      hooks.onDeferred?.();
      return;
    }
    if (decision.action === 'BLOCK') {
      await fail(request, 'POLICY_BLOCKED', decision.reasons.at(-1) ?? 'Blocked by the policy.');
      return;
    }
    const needed = decision.approvals;
    if (needed) {
      const qualifying = request.approvals.filter(
        (a) => a.operator !== request.requester && (needed.fromRoles as string[]).includes(a.role),
      ).length;
      if (qualifying < needed.count) {
        if (await requests.rejudge(id, decision, needed)) {
          await ctx.audit({
            operator: null,
            action: 'withdrawal-request.approve',
            outcome: `needs more approvals under policy version ${decision.policyVersion}`,
            operationId: request.operationId,
            resourceId: id,
          });
          changed(id);
        }
        return;
      }
    }
    let result: IdempotentResult;
    try {
      result = await ctx.executor.execute({
        operator: request.requester,
        operationId: request.operationId,
        operation,
        path: TX_PATH,
        consoleBody: request.body,
        requestId,
      });
    } catch (error) {
      if (error instanceof HttpError && error.code === 'UPSTREAM_UNAVAILABLE') {
        // Outcome unknown: the journal keeps the key; a later sweep sends the same key again.
        services.logger.warn({ withdrawalRequest: id }, 'withdrawal submission outcome unknown');
        hooks.onDeferred?.();
        return;
      }
      if (isInProgress(error)) {
        // Another replica is sending it right now; it records the outcome on the request.
        return;
      }
      if (error instanceof HttpError) {
        await fail(request, error.code, error.message);
        return;
      }
      throw error;
    }
    const body = parseJson(result.body);
    if (result.status >= 200 && result.status < 300) {
      const transactionId =
        typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'string'
          ? body.id
          : null;
      if (!transactionId) {
        await fail(request, 'INTERNAL_ERROR', 'The upstream accepted but named no transaction.');
        return;
      }
      if (await requests.markSubmitted(id, transactionId, result.correlationId)) {
        await ctx.audit({
          operator: request.requester,
          action: 'withdrawal-request.submit',
          outcome: 'succeeded',
          operationId: request.operationId,
          resourceId: id,
          correlationId: result.correlationId,
          upstreamRequestId: result.requestId,
          detail: `transaction ${transactionId}`,
        });
        changed(id);
      }
      return;
    }
    const envelope = parseErrorEnvelope(body);
    await fail(
      request,
      envelope?.code ?? `HTTP_${result.status}`,
      envelope?.message ?? `The upstream answered ${result.status}.`,
    );
  }

  /** One finalization per request at a time in this process; callers share its promise. */
  function finalize(id: string, requestId: string): Promise<void> {
    const running = finalizing.get(id);
    if (running) return running;
    const promise = finalizeOnce(id, requestId).finally(() => {
      finalizing.delete(id);
    });
    finalizing.set(id, promise);
    return promise;
  }

  async function current(id: string): Promise<WithdrawalRequest> {
    const request = await requests.get(id);
    if (!request) throw new Error('withdrawal request vanished');
    return publicRequest(request);
  }

  return {
    async submit(input: {
      session: Session;
      operationId: string;
      body: Uint8Array;
      requestId: string;
    }): Promise<SubmitOutcome> {
      const { session, operationId } = input;
      const existing = await requests.byOperationId(operationId);
      if (existing) {
        if (existing.requester !== session.username || !sameBytes(existing.body, input.body)) {
          throw new HttpError(
            'IDEMPOTENCY_CONFLICT',
            'This operation id was already used for a different request.',
            [{ operationId }],
          );
        }
        return { kind: 'request', request: publicRequest(existing) };
      }
      const executeUpstream = async (): Promise<SubmitOutcome> => ({
        kind: 'upstream',
        result: await ctx.executor.execute({
          operator: session.username,
          operationId,
          operation,
          path: TX_PATH,
          consoleBody: input.body,
          requestId: input.requestId,
        }),
      });
      // Already judged and journaled: a retry replays or reconciles the same key and bytes.
      if (await services.journal.get(operationId)) return executeUpstream();

      const parsed = CreateTransactionRequestSchema.safeParse(parseJson(input.body));
      if (!parsed.success) {
        throw new HttpError(
          'VALIDATION_ERROR',
          parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
        );
      }
      const withdrawal = parsed.data;
      const { decision, wallet } = await ctx.judge({ ...withdrawal, operator: session.username });

      if (decision.action === 'BLOCK') {
        await ctx.audit({
          operator: session.username,
          action: 'withdrawal.blocked',
          outcome: decision.blockedByLimit ? `limit ${decision.blockedByLimit}` : 'rule',
          operationId,
          resourceId: decision.rule?.id ?? null,
          detail: decision.reasons.at(-1) ?? null,
        });
        throw new HttpError(
          'POLICY_BLOCKED',
          decision.reasons.at(-1) ?? 'Blocked by the withdrawal policy.',
          [
            {
              rule: decision.rule,
              limit: decision.blockedByLimit,
              policyVersion: decision.policyVersion,
              reasons: decision.reasons,
            },
          ],
        );
      }
      // Sent now, the upstream judges the address itself; a request must not wait for approvals
      // only to be refused then.
      if (decision.action === 'ALLOW' || !decision.approvals) return executeUpstream();
      const problem = tronAddressProblem(withdrawal.toAddress);
      if (problem) throw new HttpError('INVALID_ADDRESS', `toAddress: ${problem}`);

      const expiryHours = (await ctx.currentPolicy()).settings.requestExpiryHours;
      const { request, isNew } = await requests.create({
        operationId,
        requester: session.username,
        walletId: wallet.id,
        accountId: wallet.accountId,
        chain: wallet.chain,
        asset: withdrawal.asset,
        toAddress: withdrawal.toAddress,
        amountAtomic: withdrawal.amountAtomic,
        clientReference:
          withdrawal.clientReference ?? clientReferenceFor(services.upstream.orgId, operationId),
        body: input.body,
        decision,
        approvalsRequired: decision.approvals,
        expiresAt: services.now() + expiryHours * HOUR_MS,
      });
      if (!isNew) return this.submit(input);
      await ctx.audit({
        operator: session.username,
        action: 'withdrawal-request.create',
        outcome: 'awaiting approval',
        operationId,
        resourceId: request.id,
        detail: `rule ${decision.rule?.id ?? '-'}, policy version ${decision.policyVersion}`,
      });
      changed(request.id);
      return { kind: 'request', request: publicRequest(request) };
    },

    async list(status: string | undefined): Promise<WithdrawalRequest[]> {
      await expire();
      if (status === undefined) return (await requests.list(null)).map(publicRequest);
      const parsed = WithdrawalRequestStatusSchema.safeParse(status);
      if (!parsed.success)
        throw new HttpError('INVALID_QUERY_PARAMETER', `Unknown status "${status}".`);
      return (await requests.list(parsed.data)).map(publicRequest);
    },

    get: async (id: string): Promise<WithdrawalRequest> => publicRequest(await requireRequest(id)),

    async approve(id: string, session: Session, requestId: string): Promise<WithdrawalRequest> {
      const request = await requireRequest(id);
      requireApprover(request, session);
      const outcome = await requests.approve(id, session.username, session.role);
      if (outcome.kind === 'unknown')
        throw new HttpError('RESOURCE_NOT_FOUND', `No withdrawal request ${id}.`);
      if (outcome.kind === 'not-pending') {
        throw new HttpError(
          'REQUEST_NOT_PENDING',
          `This request is ${outcome.request.status}, not awaiting approval.`,
          [{ status: outcome.request.status }],
        );
      }
      if (outcome.kind === 'approved') {
        await ctx.audit({
          operator: session.username,
          action: 'withdrawal-request.approve',
          outcome: outcome.isLast ? 'approved (last)' : 'approved',
          operationId: request.operationId,
          resourceId: id,
        });
        changed(id);
      }
      // A double click or a concurrent approval waits for the same single submission.
      if (outcome.request.status === 'APPROVED') await finalize(id, requestId);
      return current(id);
    },

    async reject(id: string, session: Session, body: unknown): Promise<WithdrawalRequest> {
      const parsed = RejectRequestSchema.safeParse(body);
      if (!parsed.success) throw new HttpError('VALIDATION_ERROR', 'A reason is required.');
      const request = await requireRequest(id);
      if (request.requester === session.username) {
        throw new HttpError('FORBIDDEN', 'Cancel your own request instead of rejecting it.');
      }
      requireApprover(request, session);
      if (!(await requests.reject(id, session.username, parsed.data.reason))) {
        throw new HttpError('REQUEST_NOT_PENDING', undefined, [
          { status: (await current(id)).status },
        ]);
      }
      await ctx.audit({
        operator: session.username,
        action: 'withdrawal-request.reject',
        outcome: 'rejected',
        operationId: request.operationId,
        resourceId: id,
        detail: parsed.data.reason,
      });
      changed(id);
      return current(id);
    },

    async cancel(id: string, session: Session): Promise<WithdrawalRequest> {
      const request = await requireRequest(id);
      if (request.requester !== session.username)
        throw new HttpError('FORBIDDEN', 'Only the requester can cancel a request.');
      if (!(await requests.cancel(id))) {
        throw new HttpError('REQUEST_NOT_PENDING', undefined, [
          { status: (await current(id)).status },
        ]);
      }
      await ctx.audit({
        operator: session.username,
        action: 'withdrawal-request.cancel',
        outcome: 'cancelled',
        operationId: request.operationId,
        resourceId: id,
      });
      changed(id);
      return current(id);
    },

    /**
     * Expires overdue requests and resumes every APPROVED one not yet submitted (a restart
     * between approval and submission): the journal makes the resend use the same key.
     */
    async sweep(): Promise<void> {
      await expire();
      for (const request of await requests.approvedNotSubmitted()) {
        try {
          await finalize(request.id, `bff_sweep_${randomUUID()}`);
        } catch (error) {
          services.logger.error({ err: error, withdrawalRequest: request.id }, 'resume failed');
        }
      }
    },
  };
}
