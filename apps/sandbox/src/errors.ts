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

export function sendError(res: Response, requestId: string, error: HttpError): void {
  res.status(error.status).json(errorEnvelope(error.code, requestId, error.message, error.details));
}

/** Maps body-parser failures (size, aborted, encoding) to the interface's codes. */
function fromParserError(error: unknown): HttpError | null {
  if (typeof error !== 'object' || error === null || !('type' in error)) return null;
  switch (error.type) {
    case 'entity.too.large':
      return new HttpError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'encoding.unsupported':
    case 'charset.unsupported':
    case 'stream.encoding.set':
      return new HttpError('VALIDATION_ERROR', 'The request body could not be read.');
    default:
      return null;
  }
}

/** The one error middleware: every failure leaves as the interface's envelope. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const requestId = ids.get(req)?.requestId ?? randomUUID();
    const known = error instanceof HttpError ? error : fromParserError(error);
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
