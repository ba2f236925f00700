import { createHash } from 'node:crypto';
import express, { type Request } from 'express';
import { HttpError } from '../errors';

/** 1 MiB, as DESIGN.md: larger bodies get 413 PAYLOAD_TOO_LARGE. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Reads the exact body bytes of every request (any content type); nothing is re-serialized. */
export const rawBodyMiddleware = express.raw({ type: () => true, limit: BODY_LIMIT_BYTES });

const EMPTY = Buffer.alloc(0);

export function rawBody(req: Request): Buffer {
  const body: unknown = req.body;
  return Buffer.isBuffer(body) ? body : EMPTY;
}

export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Parses the raw body as JSON; a missing or malformed body is 400 VALIDATION_ERROR. */
export function jsonBody(req: Request): unknown {
  const bytes = rawBody(req);
  if (bytes.length === 0)
    throw new HttpError('VALIDATION_ERROR', 'A JSON request body is required.');
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch {
    throw new HttpError('VALIDATION_ERROR', 'The request body is not valid JSON.');
  }
}
