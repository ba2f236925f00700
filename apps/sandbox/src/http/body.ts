import { createHash } from 'node:crypto';
import express, { type Request } from 'express';
import { HttpError } from '../errors';

/** 1 MiB, as DESIGN.md: larger bodies get 413 PAYLOAD_TOO_LARGE. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** Reads the exact body bytes of every request (any content type); nothing is re-serialized. */
export const rawBodyMiddleware = express.raw({ type: () => true, limit: BODY_LIMIT_BYTES });

const EMPTY = Buffer.alloc(0);

export function rawBody(req: Request): Buffer {
  const body: unknown = req.body;
  return Buffer.isBuffer(body) ? body : EMPTY;
}

/** Lowercase hex SHA-256 (node:crypto: the pure-JS hash was ~1.3% of a withdrawal's CPU). */
export function sha256HexOf(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

const bodyHashes = new WeakMap<Request, string>();

/** SHA-256 hex of the raw body, computed once per request (the signature and idempotency both use it). */
export function rawBodyHash(req: Request): string {
  let hash = bodyHashes.get(req);
  if (hash === undefined) {
    hash = sha256HexOf(rawBody(req));
    bodyHashes.set(req, hash);
  }
  return hash;
}

/**
 * Deepest nesting of arrays and objects a body may have. No request of the interface comes
 * close; far deeper input (a 1 MiB body holds ~500,000 levels) overflows the stack of the
 * recursive validators and serializers that handle a parsed body.
 */
const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests deeper than `limit`: one pass over the text, no recursion. */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let isInString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (isInString) {
      if (char === 0x5c) i += 1;
      else if (char === 0x22) isInString = false;
    } else if (char === 0x22) {
      isInString = true;
    } else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/** Parses the raw body as JSON; a missing, malformed or too deep body is 400 VALIDATION_ERROR. */
export function jsonBody(req: Request): unknown {
  const bytes = rawBody(req);
  if (bytes.length === 0)
    throw new HttpError('VALIDATION_ERROR', 'A JSON request body is required.');
  let parsed: unknown;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new HttpError('VALIDATION_ERROR', 'The request body is not valid JSON.');
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new HttpError(
      'VALIDATION_ERROR',
      `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
    );
  }
  return parsed;
}
