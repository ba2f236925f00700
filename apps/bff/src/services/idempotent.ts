import { randomUUID } from 'node:crypto';
import { OutcomeUnknownError } from '@settlement/client';
import { MPC_INITIALIZE_BODY, utf8Bytes } from '@settlement/protocol';
import { sha256Hex } from '@settlement/protocol/signing';
import { HttpError } from '../errors';
import type { JournalEntry, JournalStore } from '../store/journal';
import { auditAction, resourceIdOf } from './audit';
import { recordAttempts, type Services } from './services';
import type { Operation } from './operations';
import { reconcileWithdrawal, recordFound } from './reconcile';

/** 1-128 visible ASCII characters, chosen by the console per logical action. */
export const OPERATION_ID_PATTERN = /^[\x21-\x7e]{1,128}$/;

export type IdempotentResult = {
  status: number;
  body: Uint8Array;
  requestId: string | null;
  correlationId: string | null;
  isReplay: boolean;
};

const MPC_KEY_SETTING = 'mpc-initialize-idempotency-key';

/** `op-<first 32 hex of sha256(orgId|operationId)>`: stable across retries and restarts. */
export function idempotencyKeyFor(orgId: string, operationId: string): string {
  return `op-${sha256Hex(`${orgId}|${operationId}`).slice(0, 32)}`;
}

/** The clientReference the BFF sets when the operator leaves it empty. */
export function clientReferenceFor(orgId: string, operationId: string): string {
  return `op-${sha256Hex(`ref|${orgId}|${operationId}`).slice(0, 24)}`;
}

function parseObject(bytes: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new HttpError('VALIDATION_ERROR', 'The body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError('VALIDATION_ERROR', 'The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** The exact bytes to send upstream, and the clientReference (withdrawals). */
async function prepare(
  services: Services,
  operation: Operation,
  consoleBody: Uint8Array,
  operationId: string,
): Promise<{ body: Uint8Array; clientReference: string | null; idempotencyKey: string }> {
  const orgId = services.upstream.orgId;
  if (operation.name === 'mpc.initialize') {
    if (consoleBody.length > 0) {
      const parsed = parseObject(consoleBody);
      if (Object.keys(parsed).length > 0) {
        throw new HttpError('VALIDATION_ERROR', 'MPC initialize takes no fields.');
      }
    }
    // One durable key per organization: clicks, reloads and restarts reuse it.
    const idempotencyKey = await services.settings.getOrCreate(
      `${MPC_KEY_SETTING}:${orgId}`,
      () => `mpc-init-${randomUUID()}`,
    );
    return { body: utf8Bytes(MPC_INITIALIZE_BODY), clientReference: null, idempotencyKey };
  }
  const parsed = parseObject(consoleBody);
  const idempotencyKey = idempotencyKeyFor(orgId, operationId);
  if (operation.name !== 'transactions.create') {
    return { body: consoleBody, clientReference: null, idempotencyKey };
  }
  const given = parsed.clientReference;
  if (typeof given === 'string' && given.length > 0) {
    return { body: consoleBody, clientReference: given, idempotencyKey };
  }
  if (given !== undefined && given !== null && given !== '') {
    throw new HttpError('VALIDATION_ERROR', 'clientReference must be a string.');
  }
  const clientReference = clientReferenceFor(orgId, operationId);
  const body = utf8Bytes(JSON.stringify({ ...parsed, clientReference }));
  return { body, clientReference, idempotencyKey };
}

/** What a repeat of an operation id must match: who, what and the exact bytes the console sent. */
export function requestHashOf(
  operator: string,
  operation: Operation,
  consoleBody: Uint8Array,
): string {
  return sha256Hex(
    `${operator}\n${operation.method}\n${operation.name}\n${sha256Hex(consoleBody)}`,
  );
}

function recorded(entry: JournalEntry): IdempotentResult {
  return {
    status: entry.status ?? 500,
    body: entry.response ?? new Uint8Array(),
    requestId: entry.upstreamRequestId,
    correlationId: entry.correlationId,
    isReplay: true,
  };
}

function unknownOutcome(operationId: string): HttpError {
  return new HttpError(
    'UPSTREAM_UNAVAILABLE',
    'The upstream did not answer; the outcome is unknown. Retry the same action: it is safe.',
    [{ outcome: 'unknown', operationId }],
  );
}

function abandoned(operationId: string): HttpError {
  return new HttpError(
    'IDEMPOTENCY_CONFLICT',
    'This operation was abandoned: it is never sent again. Start a new one.',
    [{ operationId, state: 'abandoned' }],
  );
}

/** The upstream client's attempts per action (DESIGN.md: at most 3). */
const UPSTREAM_ATTEMPTS = 3;

/**
 * A pending row younger than this is being sent by another process (replica): a duplicate
 * waits for its outcome instead of sending again. An older one was left by a process that died
 * mid-call, and is reconciled and resent with the same key, as after a restart. Twice the
 * upstream client's whole retry budget (every attempt timing out; the backoff between them is
 * under a second): 60 s with the default 10 s timeout. A fixed 60 s was shorter than the budget
 * of a timeout above 20 s (a live call sent again by another replica), and kept operators of a
 * crashed replica waiting a minute where the budget is a few seconds.
 */
function pendingLeaseMs(upstreamTimeoutMs: number): number {
  return 2 * UPSTREAM_ATTEMPTS * upstreamTimeoutMs;
}

/** The lease with the default upstream timeout (UPSTREAM_TIMEOUT_MS, 10 s). */
export const PENDING_LEASE_MS = pendingLeaseMs(10_000);
/** How long a duplicate waits for another replica's outcome before answering "in progress". */
const IN_PROGRESS_WAIT_MS = 10_000;
const IN_PROGRESS_POLL_MS = 50;

const IN_PROGRESS_MESSAGE =
  'This operation is in progress (another request is sending it). Retry shortly: it is safe.';

/**
 * Retryable, unlike a changed request under the same key: the same request settles by itself
 * (the other sender finishes, or its lease runs out and this one takes over), and the message
 * says to retry. Retry-After: the next attempt waits up to IN_PROGRESS_WAIT_MS again anyway.
 */
function inProgress(operationId: string): HttpError {
  return new HttpError(
    'IDEMPOTENCY_CONFLICT',
    IN_PROGRESS_MESSAGE,
    [{ operationId, state: 'pending' }],
    { 'retry-after': '1' },
    true,
  );
}

/** The error of a duplicate that found the operation still being sent elsewhere. */
export function isInProgress(error: unknown): boolean {
  return (
    error instanceof HttpError &&
    error.code === 'IDEMPOTENCY_CONFLICT' &&
    error.message === IN_PROGRESS_MESSAGE
  );
}

type JournalOutcome = Parameters<JournalStore['finish']>[1];

export type IdempotentInput = {
  operator: string;
  operationId: string;
  operation: Operation;
  path: string;
  consoleBody: Uint8Array;
  requestId: string;
};

/**
 * Journaled execution of an idempotent operation (wallets, withdrawals, MPC initialize): the
 * journal row is written before the upstream call and the outcome after. A repeat of the same
 * operation returns the recorded answer, or reconciles and resends the same key and bytes.
 */
export function createIdempotentExecutor(
  services: Services,
  options: { inProgressWaitMs?: number } = {},
) {
  const inProgressWaitMs = options.inProgressWaitMs ?? IN_PROGRESS_WAIT_MS;
  const inFlight = new Map<string, Promise<unknown>>();
  /**
   * Outcomes the upstream gave whose journal write failed (a full disk, a lost database): a
   * retry in this process records and returns them, rather than find its own operation still
   * "pending" and wait out the lease meant for another process.
   */
  const unrecorded = new Map<string, JournalOutcome>();
  /**
   * Without DATABASE_URL the journal is this process's own SQLite file (replicas need
   * PostgreSQL): a pending row that is not in flight here was left by a process that died
   * mid-call, so it is reconciled at once instead of after the lease.
   */
  const isSoleWriter = services.config.databaseUrl === null;
  const leaseMs = pendingLeaseMs(services.config.upstreamTimeoutMs);

  async function finish(operationId: string, outcome: JournalOutcome): Promise<boolean> {
    try {
      const isRecorded = await services.journal.finish(operationId, outcome);
      unrecorded.delete(operationId);
      return isRecorded;
    } catch (error) {
      unrecorded.set(operationId, outcome);
      throw error;
    }
  }

  async function send(
    entry: JournalEntry,
    operation: Operation,
    requestId: string,
  ): Promise<IdempotentResult> {
    const chosen = services.upstream.clientFor(operation.scope);
    if (!chosen)
      throw new HttpError(
        'FORBIDDEN',
        `No configured API key has the scope ${operation.scope ?? 'any'}.`,
      );
    const action = auditAction(operation.name);
    const audit = (
      outcome: string,
      upstreamRequestId: string | null,
      correlationId: string | null,
      resourceId: string | null,
    ) => {
      if (!action) return Promise.resolve();
      return services.logs.audit({
        at: services.now(),
        operator: entry.operator,
        action,
        outcome,
        operationId: entry.operationId,
        idempotencyKey: entry.idempotencyKey,
        upstreamRequestId,
        correlationId,
        resourceId,
        detail: null,
      });
    };
    try {
      const response = await chosen.client.send('POST', entry.path, {
        body: entry.body,
        idempotencyKey: entry.idempotencyKey,
        requestId,
        onAttempt: recordAttempts(services, {
          operator: entry.operator,
          operation: operation.name,
          operationId: entry.operationId,
        }),
      });
      const isSuccess = response.status >= 200 && response.status < 300;
      await finish(entry.operationId, {
        state: isSuccess ? 'succeeded' : 'failed',
        status: response.status,
        response: response.bodyBytes,
        upstreamRequestId: response.requestId,
        correlationId: response.correlationId,
      });
      await audit(
        isSuccess ? 'succeeded' : `failed ${response.status}`,
        response.requestId,
        response.correlationId,
        isSuccess ? resourceIdOf(response.bodyBytes) : null,
      );
      return {
        status: response.status,
        body: response.bodyBytes,
        requestId: response.requestId,
        correlationId: response.correlationId,
        isReplay: false,
      };
    } catch (error) {
      if (error instanceof OutcomeUnknownError) {
        const isRecorded = await finish(entry.operationId, {
          state: 'unknown',
          status: error.lastStatus,
          response: null,
          upstreamRequestId: error.lastRequestId,
          correlationId: null,
        });
        // Another replica settled it meanwhile (its lease on this call ran out): its answer stands.
        const settled = isRecorded ? null : await services.journal.get(entry.operationId);
        if (settled?.state === 'succeeded' || settled?.state === 'failed') return recorded(settled);
        await audit('unknown', error.lastRequestId, null, null);
        throw unknownOutcome(entry.operationId);
      }
      throw error;
    }
  }

  /** For a withdrawal of unknown outcome: the transaction by its clientReference, if it exists. */
  async function reconcile(entry: JournalEntry): Promise<IdempotentResult | null> {
    const found = await reconcileWithdrawal(services, entry);
    if (found.kind === 'unanswered') throw unknownOutcome(entry.operationId);
    if (found.kind !== 'found') return null;
    await recordFound(
      services,
      entry,
      found,
      `found by clientReference ${entry.clientReference ?? ''}`,
    );
    return {
      status: 201,
      body: found.body,
      requestId: found.requestId,
      correlationId: found.correlationId,
      isReplay: true,
    };
  }

  /**
   * The journal row of this operation id, once no other process is sending it: a fresh pending
   * row (another replica claimed it) is polled until it settles, for a bounded time, then the
   * caller gets "in progress" rather than a second upstream call.
   */
  async function waitForOthers(operationId: string): Promise<JournalEntry | null> {
    // The wait is bounded in elapsed time; the lease is the row's age on the clock that stamped it.
    const started = performance.now();
    for (;;) {
      const entry = await services.journal.get(operationId);
      if (!entry || entry.state !== 'pending') return entry;
      if (isSoleWriter) return entry;
      if (entry.ageMs >= leaseMs) return entry;
      if (performance.now() - started >= inProgressWaitMs) throw inProgress(operationId);
      await new Promise((resolve) => setTimeout(resolve, IN_PROGRESS_POLL_MS));
    }
  }

  async function run(input: IdempotentInput): Promise<IdempotentResult> {
    const requestHash = requestHashOf(input.operator, input.operation, input.consoleBody);
    const owed = unrecorded.get(input.operationId);
    // Still failing: the storage fault answers (a retryable 503), never a second upstream call.
    if (owed) await finish(input.operationId, owed);
    const existing = await waitForOthers(input.operationId);
    if (existing) {
      if (existing.requestHash !== requestHash || existing.path !== input.path) {
        throw new HttpError(
          'IDEMPOTENCY_CONFLICT',
          'This operation id was already used for a different request.',
          [{ operationId: input.operationId }],
        );
      }
      if (existing.state === 'succeeded' || existing.state === 'failed') return recorded(existing);
      if (existing.state === 'abandoned') throw abandoned(existing.operationId);
      const reconciled = await reconcile(existing);
      if (reconciled) return reconciled;
      if (!(await services.journal.markPending(existing.operationId))) {
        // Settled or abandoned elsewhere while the reconciliation ran: never send it again.
        const now = await services.journal.get(existing.operationId);
        if (now && (now.state === 'succeeded' || now.state === 'failed')) return recorded(now);
        throw abandoned(existing.operationId);
      }
      return send(existing, input.operation, input.requestId);
    }
    const prepared = await prepare(services, input.operation, input.consoleBody, input.operationId);
    const entry = {
      operationId: input.operationId,
      operator: input.operator,
      operation: input.operation.name,
      idempotencyKey: prepared.idempotencyKey,
      method: input.operation.method,
      path: input.path,
      requestHash,
      body: prepared.body,
      bodyHash: sha256Hex(prepared.body),
      clientReference: prepared.clientReference,
    };
    if (!(await services.journal.begin(entry))) return run(input);
    const stored = await services.journal.get(input.operationId);
    if (!stored) throw new Error('journal row vanished');
    return send(stored, input.operation, input.requestId);
  }

  return {
    /** Same operation id in flight in this process: wait for it, then answer from the journal. */
    async execute(input: IdempotentInput): Promise<IdempotentResult> {
      for (;;) {
        const pending = inFlight.get(input.operationId);
        if (!pending) break;
        await pending.catch(() => undefined);
      }
      const promise = run(input);
      inFlight.set(input.operationId, promise);
      try {
        return await promise;
      } finally {
        inFlight.delete(input.operationId);
      }
    },
  };
}

export type IdempotentExecutor = ReturnType<typeof createIdempotentExecutor>;
