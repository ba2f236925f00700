import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ERROR_CODES, errorEnvelope, type ErrorCode } from '@settlement/protocol';

/** The one error type of the sandbox: a code of the interface, optional message and details. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_CODES[code].text,
    readonly details: unknown[] = [],
  ) {
    super(message);
    this.status = ERROR_CODES[code].status;
  }
}

/** Request ids we echo: visible ASCII without spaces, 1-128 characters. */
const TRACE_ID_PATTERN = /^[\x21-\x7e]{1,128}$/;

export type RequestIds = { requestId: string; correlationId: string };

const ids = new WeakMap<Request, RequestIds>();

function pickId(value: string | string[] | undefined): string {
  return typeof value === 'string' && TRACE_ID_PATTERN.test(value) ? value : randomUUID();
}

/**
 * Gives every request a request id (echoing a valid incoming `x-request-id`) and a correlation
 * id (echoing a valid `x-correlation-id`), both sent back as response headers.
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const value = {
    requestId: pickId(req.headers['x-request-id']),
    correlationId: pickId(req.headers['x-correlation-id']),
  };
  ids.set(req, value);
  res.setHeader('x-request-id', value.requestId);
  res.setHeader('x-correlation-id', value.correlationId);
  next();
}

export function requestIds(req: Request): RequestIds {
  const value = ids.get(req);
  if (value === undefined) throw new Error('requestIdMiddleware did not run');
  return value;
}

function sendError(res: Response, requestId: string, error: HttpError): void {
  res.status(error.status).json(errorEnvelope(error.code, requestId, error.message, error.details));
}

/** The status an error of Express, the router or body-parser carries (`status`/`statusCode`). */
function statusOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/**
 * The client went away mid-request: body-parser's `request.aborted`. Nobody is left to read an
 * answer, and it is not a fault of ours, so it is neither a 500 nor an error line.
 */
function isAbortedRequest(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { type?: unknown }).type === 'request.aborted'
  );
}

/**
 * Any error that says the request itself was bad (a 4xx status from Express, the router or
 * body-parser, or a URIError from decoding a malformed percent-encoded path segment) as the
 * interface's code of that class. Such a request is never retryable, so never a 500.
 */
function fromClientError(error: unknown): HttpError | null {
  const status = statusOf(error);
  if (error instanceof URIError && (status === null || status === 400)) {
    return new HttpError('VALIDATION_ERROR', 'The request path is not valid percent-encoding.');
  }
  if (status === null || status < 400 || status > 499) return null;
  if (status === 413)
    return new HttpError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB.');
  if (status === 404 || status === 410)
    return new HttpError('RESOURCE_NOT_FOUND', 'No such route.');
  return new HttpError('VALIDATION_ERROR', 'The request could not be read.');
}

/** The one error middleware: every failure leaves as the interface's envelope. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const requestId = ids.get(req)?.requestId ?? randomUUID();
    if (isAbortedRequest(error)) {
      logger.info(
        { requestId, method: req.method, target: req.originalUrl },
        'request aborted by the client',
      );
    }
    const known = error instanceof HttpError ? error : fromClientError(error);
    if (known) {
      sendError(res, requestId, known);
      return;
    }
    logger.error({ err: error, requestId }, 'unhandled error');
    sendError(
      res,
      requestId,
      new HttpError('INTERNAL_ERROR', `Internal error (request ${requestId}).`),
    );
  };
}
