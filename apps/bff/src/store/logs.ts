import type { Db } from './db';

export type RequestLogEntry = {
  at: number;
  operator: string | null;
  operation: string;
  operationId: string | null;
  method: string;
  path: string;
  attempt: number;
  status: number | null;
  durationMs: number;
  requestIdSent: string;
  upstreamRequestId: string | null;
  correlationId: string | null;
  idempotencyKey: string | null;
  error: string | null;
  /** The canonical string's non-secret lines (besides method and target); never a signature. */
  keyId: string | null;
  signedTimestamp: string | null;
  nonce: string | null;
  bodyHash: string | null;
  /** The upstream's clock when it answered (its Date header), epoch ms. */
  upstreamDate: number | null;
  /** The upstream's error envelope of a non-2xx answer; details as JSON text. */
  errorCode: string | null;
  errorMessage: string | null;
  errorDetails: string | null;
};

/** A request-log row read back, with its row id. */
export type RequestLogRow = RequestLogEntry & { id: number };

export type AuditAction =
  | 'login'
  | 'logout'
  | 'account.create'
  | 'wallet.create'
  | 'transaction.create'
  | 'mpc.initialize'
  | 'sandbox.deposit'
  | 'sandbox.co-signer'
  | 'policy.update'
  | 'withdrawal.blocked'
  | 'withdrawal-request.create'
  | 'withdrawal-request.approve'
  | 'withdrawal-request.reject'
  | 'withdrawal-request.cancel'
  | 'withdrawal-request.expire'
  | 'withdrawal-request.submit'
  | 'address-book.create'
  | 'address-book.approve'
  | 'address-book.remove'
  | 'passkey.register'
  | 'passkey.remove'
  | 'passkey.assertion'
  | 'session.end'
  | 'password.change'
  | 'operator.create'
  | 'operator.update'
  | 'operator.reset-password'
  | 'wallet-label.update'
  | 'saved-view.save'
  | 'saved-view.delete';

export type AuditEntry = {
  at: number;
  operator: string | null;
  action: AuditAction;
  outcome: string;
  operationId: string | null;
  idempotencyKey: string | null;
  upstreamRequestId: string | null;
  correlationId: string | null;
  resourceId: string | null;
  detail: string | null;
};

/** An audit-log row read back, with its row id (the log's own order). */
export type AuditRecord = AuditEntry & { id: number };

export type AuditFilter = {
  operator?: string | undefined;
  action?: string | undefined;
  /** Epoch ms, inclusive. */
  from?: number | undefined;
  /** Epoch ms, exclusive. */
  to?: number | undefined;
};

type RequestRow = {
  id: number;
  at: number;
  operator: string | null;
  operation: string;
  operation_id: string | null;
  method: string;
  path: string;
  attempt: number;
  status: number | null;
  duration_ms: number;
  request_id_sent: string;
  upstream_request_id: string | null;
  correlation_id: string | null;
  idempotency_key: string | null;
  error: string | null;
  key_id: string | null;
  signed_timestamp: string | null;
  nonce: string | null;
  body_hash: string | null;
  upstream_date: number | null;
  error_code: string | null;
  error_message: string | null;
  error_details: string | null;
};

type AuditRow = {
  id: number;
  at: number;
  operator: string | null;
  action: AuditAction;
  outcome: string;
  operation_id: string | null;
  idempotency_key: string | null;
  upstream_request_id: string | null;
  correlation_id: string | null;
  resource_id: string | null;
  detail: string | null;
};

function fromRequestRow(r: RequestRow): RequestLogRow {
  return {
    id: r.id,
    at: r.at,
    operator: r.operator,
    operation: r.operation,
    operationId: r.operation_id,
    method: r.method,
    path: r.path,
    attempt: r.attempt,
    status: r.status,
    durationMs: r.duration_ms,
    requestIdSent: r.request_id_sent,
    upstreamRequestId: r.upstream_request_id,
    correlationId: r.correlation_id,
    idempotencyKey: r.idempotency_key,
    error: r.error,
    keyId: r.key_id,
    signedTimestamp: r.signed_timestamp,
    nonce: r.nonce,
    bodyHash: r.body_hash,
    upstreamDate: r.upstream_date,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    errorDetails: r.error_details,
  };
}

function fromAuditRow(r: AuditRow): AuditRecord {
  return {
    id: r.id,
    at: r.at,
    operator: r.operator,
    action: r.action,
    outcome: r.outcome,
    operationId: r.operation_id,
    idempotencyKey: r.idempotency_key,
    upstreamRequestId: r.upstream_request_id,
    correlationId: r.correlation_id,
    resourceId: r.resource_id,
    detail: r.detail,
  };
}

function auditParams(snapshotAt: number, filter: AuditFilter) {
  return {
    snapshotAt,
    operator: filter.operator ?? null,
    action: filter.action ?? null,
    from: filter.from ?? null,
    to: filter.to ?? null,
  };
}

const FLUSH_DELAY_MS = 50;
const FLUSH_MAX_ROWS = 256;

export type LogStore = ReturnType<typeof createLogStore>;

/** Request log (every upstream call) and audit log (every operator action), both bounded. */
export function createLogStore(
  db: Db,
  /** A deferred request-log write failed (it runs outside any request, so it cannot throw). */
  onWriteError: (error: unknown, rows: number) => void,
) {
  const insertRequest = db.prepare(
    `INSERT INTO request_log (at, operator, operation, operation_id, method, path, attempt, status,
       duration_ms, request_id_sent, upstream_request_id, correlation_id, idempotency_key, error,
       key_id, signed_timestamp, nonce, body_hash, upstream_date, error_code, error_message,
       error_details)
     VALUES (@at, @operator, @operation, @operationId, @method, @path, @attempt, @status,
       @durationMs, @requestIdSent, @upstreamRequestId, @correlationId, @idempotencyKey, @error,
       @keyId, @signedTimestamp, @nonce, @bodyHash, @upstreamDate, @errorCode, @errorMessage,
       @errorDetails)`,
  );
  const insertAudit = db.prepare(
    `INSERT INTO audit_log (at, operator, action, outcome, operation_id, idempotency_key,
       upstream_request_id, correlation_id, resource_id, detail)
     VALUES (@at, @operator, @action, @outcome, @operationId, @idempotencyKey,
       @upstreamRequestId, @correlationId, @resourceId, @detail)`,
  );
  const findRequests = db.prepare<string[], RequestRow>(
    `SELECT * FROM request_log WHERE upstream_request_id = ? OR request_id_sent = ?
       OR correlation_id = ? OR idempotency_key = ? OR operation_id = ? ORDER BY at, id LIMIT 200`,
  );
  const findAudit = db.prepare<string[], AuditRow>(
    `SELECT * FROM audit_log WHERE upstream_request_id = ? OR correlation_id = ?
       OR idempotency_key = ? OR operation_id = ? OR resource_id = ? ORDER BY at, id LIMIT 200`,
  );
  const recentRequests = db.prepare<[number], RequestRow>(
    'SELECT * FROM request_log ORDER BY id DESC LIMIT ?',
  );
  const recentAudit = db.prepare<[number], AuditRow>(
    'SELECT * FROM audit_log ORDER BY id DESC LIMIT ?',
  );
  const byRequestId = db.prepare<[string, string], RequestRow>(
    `SELECT * FROM request_log WHERE request_id_sent = ? OR upstream_request_id = ?
     ORDER BY id DESC LIMIT 1`,
  );
  const firstUseOfKey = db.prepare<[string, number], RequestRow>(
    'SELECT * FROM request_log WHERE idempotency_key = ? AND id < ? ORDER BY id LIMIT 1',
  );
  const earlierNonce = db.prepare<[string, string, number], RequestRow>(
    'SELECT * FROM request_log WHERE key_id = ? AND nonce = ? AND id < ? ORDER BY id LIMIT 1',
  );
  const acceptedBefore = db.prepare<[string, number], { id: number }>(
    `SELECT id FROM request_log WHERE key_id = ? AND status IS NOT NULL AND status != 401
       AND id < ? LIMIT 1`,
  );
  const auditWhere = `WHERE at <= @snapshotAt
      AND (@operator IS NULL OR operator = @operator) AND (@action IS NULL OR action = @action)
      AND (@from IS NULL OR at >= @from) AND (@to IS NULL OR at < @to)`;
  const auditCount = db.prepare<Record<string, unknown>, { n: number }>(
    `SELECT COUNT(*) AS n FROM audit_log ${auditWhere}`,
  );
  const auditPage = db.prepare<Record<string, unknown>, AuditRow>(
    `SELECT * FROM audit_log ${auditWhere} ORDER BY at DESC, id DESC LIMIT @limit OFFSET @offset`,
  );
  const auditAfter = db.prepare<Record<string, unknown>, AuditRow>(
    `SELECT * FROM audit_log ${auditWhere} AND id > @afterId ORDER BY id LIMIT @limit`,
  );

  // Request-log rows are written in batches, one transaction per FLUSH_DELAY_MS or
  // FLUSH_MAX_ROWS: each row touches six b-trees, so one WAL commit per upstream attempt cost
  // ~7% of the proxy's CPU. Every read of the store flushes first; shutdown flushes too.
  let pending: RequestLogEntry[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  const insertRequests = db.transaction((entries: readonly RequestLogEntry[]) => {
    for (const entry of entries) insertRequest.run(entry);
  });
  const flush = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    // A test or shutdown may close the database first: the last rows then have nowhere to go.
    if (db.open) insertRequests(batch);
  };
  const flushLater = () => {
    const rows = pending.length;
    try {
      flush();
    } catch (error) {
      onWriteError(error, rows);
    }
  };

  return {
    request: (entry: RequestLogEntry): void => {
      pending.push(entry);
      if (pending.length >= FLUSH_MAX_ROWS) flushLater();
      else flushTimer ??= setTimeout(flushLater, FLUSH_DELAY_MS).unref();
    },
    /** Writes the queued request-log rows now (before reads, and before the database closes). */
    flush,
    audit: (entry: AuditEntry) => insertAudit.run(entry),
    findRequests: (q: string) => {
      flush();
      return findRequests.all(q, q, q, q, q).map(fromRequestRow);
    },
    findAudit: (q: string) => findAudit.all(q, q, q, q, q).map(fromAuditRow),
    recentRequests: (limit: number) => {
      flush();
      return recentRequests.all(limit).map(fromRequestRow);
    },
    recentAudit: (limit: number) => recentAudit.all(limit).map(fromAuditRow),
    /** The latest attempt that sent, or was answered with, this request id. */
    requestById: (requestId: string): RequestLogRow | null => {
      flush();
      const row = byRequestId.get(requestId, requestId);
      return row ? fromRequestRow(row) : null;
    },
    /** The earliest attempt before row `beforeId` that carried this idempotency key. */
    firstUseOfKey: (idempotencyKey: string, beforeId: number): RequestLogRow | null => {
      flush();
      const row = firstUseOfKey.get(idempotencyKey, beforeId);
      return row ? fromRequestRow(row) : null;
    },
    /** An attempt before row `beforeId` that signed with the same key id and nonce. */
    earlierNonce: (keyId: string, nonce: string, beforeId: number): RequestLogRow | null => {
      flush();
      const row = earlierNonce.get(keyId, nonce, beforeId);
      return row ? fromRequestRow(row) : null;
    },
    /** Whether the upstream accepted this key id's signature at least once before row `beforeId`. */
    keyAcceptedBefore: (keyId: string, beforeId: number): boolean => {
      flush();
      return acceptedBefore.get(keyId, beforeId) !== undefined;
    },
    /**
     * One page of the audit log, newest first, as it stood at `snapshotAt` (epoch ms): rows
     * recorded later never shift the pages. Returns the page and the total matching.
     */
    auditPage: (input: {
      snapshotAt: number;
      filter: AuditFilter;
      limit: number;
      offset: number;
    }) => {
      const params = auditParams(input.snapshotAt, input.filter);
      return {
        total: auditCount.get(params)?.n ?? 0,
        items: auditPage
          .all({ ...params, limit: input.limit, offset: input.offset })
          .map(fromAuditRow),
      };
    },
    /** Audit rows as of `snapshotAt` after row `afterId`, oldest first (exports walk with it). */
    auditAfter: (input: {
      snapshotAt: number;
      filter: AuditFilter;
      afterId: number;
      limit: number;
    }) =>
      auditAfter
        .all({
          ...auditParams(input.snapshotAt, input.filter),
          afterId: input.afterId,
          limit: input.limit,
        })
        .map(fromAuditRow),
    /** Drops rows older than `before` and all but the newest `maxRows` of each log. */
    prune: db.transaction((before: number, maxRows: number) => {
      flush();
      let removed = 0;
      for (const table of ['request_log', 'audit_log']) {
        removed += db.prepare(`DELETE FROM ${table} WHERE at < ?`).run(before).changes;
        removed += db
          .prepare(`DELETE FROM ${table} WHERE id <= (SELECT MAX(id) FROM ${table}) - ?`)
          .run(maxRows).changes;
      }
      return removed;
    }),
  };
}
