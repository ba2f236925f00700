import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ERROR_CODES, errorEnvelope, type ErrorCode } from '@settlement/protocol';

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

export function sendError(res: Response, error: HttpError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res
    .status(error.status)
    .json(errorEnvelope(error.code, requestIdOf(res), error.message, error.details));
}

type BodyParserError = { type?: unknown; status?: unknown };

function fromBodyParser(error: unknown): HttpError | null {
  if (typeof error !== 'object' || error === null) return null;
  const { type } = error as BodyParserError;
  if (type === 'entity.too.large') return new HttpError('PAYLOAD_TOO_LARGE');
  if (type === 'entity.parse.failed')
    return new HttpError('VALIDATION_ERROR', 'The body is not valid JSON.');
  if (
    (typeof type === 'string' && type.startsWith('encoding.')) ||
    type === 'charset.unsupported'
  ) {
    return new HttpError('VALIDATION_ERROR', 'The body encoding is not supported.');
  }
  return null;
}

/** Writes the interface's envelope; a 500 hides its internals behind the requestId. */
export function errorMiddleware(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const known = error instanceof HttpError ? error : fromBodyParser(error);
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
