import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { SettlementApiError } from '@settlement/client';
import { ERROR_CODES, errorEnvelope, isErrorCode, type ErrorCode } from '@settlement/protocol';

/** The one error type of the BFF: a code of protocol's table, its status and envelope. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown[];
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string = ERROR_CODES[code].text,
    details: unknown[] = [],
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.details = details;
    this.headers = headers;
  }
}

/** Our own id of a BFF request; proxied responses replace the header with the upstream's. */
export function requestIdOf(res: Response): string {
  const value: unknown = res.locals.requestId;
  return typeof value === 'string' ? value : 'bff_unknown';
}

export function requestIdMiddleware(_req: Request, res: Response, next: NextFunction): void {
  const id = `bff_${randomUUID()}`;
  res.locals.requestId = id;
  res.setHeader('x-request-id', id);
  next();
}

function sendError(res: Response, error: HttpError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res
    .status(error.status)
    .json(errorEnvelope(error.code, requestIdOf(res), error.message, error.details));
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

/**
 * The browser went away mid-request: body-parser's `request.aborted`, or the AbortError of an
 * upstream call the proxy cancelled because the browser closed its connection (a navigation or
 * a cancelled query). Not a fault of ours: nobody is left to read an answer.
 */
function isAbortedRequest(error: unknown, req: Request): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as ErrorFields).type === 'request.aborted') return true;
  return error instanceof Error && error.name === 'AbortError' && req.socket.destroyed;
}

/** Writes the interface's envelope; a 500 hides its internals behind the requestId. */
export function errorMiddleware(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (isAbortedRequest(error, req)) {
      logger.info(
        { requestId: requestIdOf(res), method: req.method, path: req.path },
        'request aborted by the client',
      );
      // The socket is gone; the envelope below is only for a half-closed one still listening.
      sendError(res, new HttpError('VALIDATION_ERROR', 'The request was aborted.'));
      return;
    }
    const known =
      error instanceof HttpError ? error : (fromUpstreamError(error) ?? fromClientError(error));
    if (known) {
      sendError(res, known);
      return;
    }
    logger.error(
      { err: error, requestId: requestIdOf(res), method: req.method, path: req.path },
      'unhandled error',
    );
    sendError(res, new HttpError('INTERNAL_ERROR'));
  };
}
