import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { SettlementApiError } from '@settlement/client';
import { ERROR_CODES, errorEnvelope, isErrorCode, type ErrorCode } from '@settlement/protocol';
import { timeOrderedId } from '@settlement/protocol/ids';

/** The one error type of the BFF: a code of protocol's table, its status and envelope. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown[];
  readonly headers: Record<string, string>;
  /**
   * The envelope's `retryable`: the code's own flag unless this instance says otherwise. A code
   * names a class of failure, and a few instances of a class are transient where the class is
   * not (an operation still in progress is an IDEMPOTENCY_CONFLICT that settles by itself).
   */
  readonly retryable: boolean;

  constructor(
    code: ErrorCode,
    message: string = ERROR_CODES[code].text,
    details: unknown[] = [],
    headers: Record<string, string> = {},
    retryable: boolean = ERROR_CODES[code].retryable,
  ) {
    super(message);
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.details = details;
    this.headers = headers;
    this.retryable = retryable;
  }
}

/** Our own id of a BFF request; proxied responses replace the header with the upstream's. */
export function requestIdOf(res: Response): string {
  const value: unknown = res.locals.requestId;
  return typeof value === 'string' ? value : 'bff_unknown';
}

/** A new id for one BFF request, set as its x-request-id header. */
export function startRequestId(res: ServerResponse): string {
  // Sent upstream as the request id and indexed by the request log: time-ordered (ids.ts).
  const id = `bff_${timeOrderedId()}`;
  res.setHeader('x-request-id', id);
  return id;
}

export function requestIdMiddleware(_req: Request, res: Response, next: NextFunction): void {
  res.locals.requestId = startRequestId(res);
  next();
}

/** The envelope as JSON, with the headers express's `res.json` would set (node's API only). */
function sendError(res: ServerResponse, requestId: string, error: HttpError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  const body = JSON.stringify({
    ...errorEnvelope(error.code, requestId, error.message, error.details),
    retryable: error.retryable,
  });
  res.statusCode = error.status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}

type ErrorFields = { type?: unknown; status?: unknown; statusCode?: unknown };

/** The status an error of Express, the router or body-parser carries (`status`/`statusCode`). */
function statusOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, statusCode } = error as ErrorFields;
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/**
 * Any error that says the request itself was bad (a 4xx status from Express, the router or
 * body-parser, or a URIError from decoding a malformed percent-encoded path segment) as the
 * envelope of that class. Such a request is never retryable, so never a 500.
 */
function fromClientError(error: unknown): HttpError | null {
  const status = statusOf(error);
  if (error instanceof URIError && (status === null || status === 400)) {
    return new HttpError('VALIDATION_ERROR', 'The request path is not valid percent-encoding.');
  }
  if (status === null || status < 400 || status > 499) return null;
  const { type } = error as ErrorFields;
  if (status === 413) return new HttpError('PAYLOAD_TOO_LARGE');
  if (status === 404 || status === 410)
    return new HttpError('RESOURCE_NOT_FOUND', 'No such route.');
  if (type === 'entity.parse.failed') {
    return new HttpError('VALIDATION_ERROR', 'The body is not valid JSON.');
  }
  if (status === 415)
    return new HttpError('VALIDATION_ERROR', 'The body encoding is not supported.');
  return new HttpError('VALIDATION_ERROR', 'The request could not be read.');
}

/**
 * An upstream refusal or outage that a route let through (a read it needed failed): the
 * interface's own code and message, so a 503 stays a retryable 503 and a 404 stays a 404,
 * never an internal error of ours. A code the table does not know is the upstream failing.
 */
function fromUpstreamError(error: unknown): HttpError | null {
  if (!(error instanceof SettlementApiError)) return null;
  if (!isErrorCode(error.code)) {
    return new HttpError('UPSTREAM_UNAVAILABLE', 'The settlement service answered unexpectedly.');
  }
  return new HttpError(error.code, error.message, error.details);
}

/** SQLite result codes (primary or extended) that say the database file cannot be used now. */
const SQLITE_UNAVAILABLE =
  /^SQLITE_(FULL|BUSY|LOCKED|IOERR|CANTOPEN|READONLY|PROTOCOL|NOLFS|NOMEM)(_\w+)?$/;
/** Network errors of a PostgreSQL connection (node-postgres passes them through as is). */
const NETWORK_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
]);
/** node-postgres's own messages for a pool or connection that cannot serve a query. */
const PG_CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * The BFF's own database is unavailable for a while (disk full, busy, I/O error, connection
 * lost): nothing is wrong with the request, and the same request may work in a moment.
 * SQLite: FULL, BUSY, LOCKED, IOERR, ... (better-sqlite3 puts the code on the error).
 * PostgreSQL: class 53 (insufficient resources, 53100 disk_full), class 08 (connection
 * exception), 57P01-57P03 (shutting down, cannot connect now), 58030 (I/O error).
 */
export function isStorageUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as Error & { code?: unknown };
  if (typeof code === 'string') {
    if (SQLITE_UNAVAILABLE.test(code) || NETWORK_UNAVAILABLE.has(code)) return true;
    if (/^(53|08)[0-9A-Z]{3}$/.test(code) || /^57P0[1-3]$/.test(code) || code === '58030') {
      return true;
    }
  }
  return PG_CONNECTION_LOST.test(error.message);
}

/** A retryable 503 for the storage being unavailable; its cause stays in the log only. */
export function storageUnavailable(): HttpError {
  return new HttpError(
    'UPSTREAM_UNAVAILABLE',
    "The console's storage is unavailable for a moment. It is safe to retry.",
  );
}

/**
 * The browser went away mid-request: body-parser's `request.aborted`, or the AbortError of an
 * upstream call the proxy cancelled because the browser closed its connection (a navigation or
 * a cancelled query). Not a fault of ours: nobody is left to read an answer.
 */
function isAbortedRequest(error: unknown, req: IncomingMessage): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as ErrorFields).type === 'request.aborted') return true;
  return error instanceof Error && error.name === 'AbortError' && req.socket.destroyed;
}

/** The path of a request target, without its query (what a log line names). */
export function pathOf(target: string): string {
  const queryAt = target.indexOf('?');
  return queryAt === -1 ? target : target.slice(0, queryAt);
}

/**
 * Answers any error with the interface's envelope; a 500 hides its internals behind the
 * requestId. On node's own request and response, so express's routes and the proxied reads
 * served ahead of express (routes/proxied-reads.ts) answer an error alike.
 */
export function answerError(
  error: unknown,
  exchange: { req: IncomingMessage; res: ServerResponse; requestId: string; logger: Logger },
): void {
  const { req, res, requestId, logger } = exchange;
  const where = { requestId, method: req.method, path: pathOf(req.url ?? '') };
  if (isAbortedRequest(error, req)) {
    logger.info(where, 'request aborted by the client');
    // The socket is gone; the envelope below is only for a half-closed one still listening.
    sendError(res, requestId, new HttpError('VALIDATION_ERROR', 'The request was aborted.'));
    return;
  }
  const known =
    error instanceof HttpError ? error : (fromUpstreamError(error) ?? fromClientError(error));
  if (known) {
    sendError(res, requestId, known);
    return;
  }
  if (isStorageUnavailable(error)) {
    // Logged with its cause (which disk, which connection); the browser may simply retry.
    logger.warn({ err: error, ...where }, 'storage unavailable');
    sendError(res, requestId, storageUnavailable());
    return;
  }
  logger.error({ err: error, ...where }, 'unhandled error');
  sendError(res, requestId, new HttpError('INTERNAL_ERROR'));
}

/** Express's error layer: the envelope of `answerError`, unless an answer already began. */
export function errorMiddleware(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(error);
      return;
    }
    answerError(error, { req, res, requestId: requestIdOf(res), logger });
  };
}
