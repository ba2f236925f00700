import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { LIMIT_DEFAULT, LIMIT_MAX } from '@settlement/protocol';
import { sha256Hex } from '@settlement/protocol/signing';
import { HttpError } from '../errors';

/** Where a page ended: the sort value and id of its last row. */
export type CursorPosition = { sortValue: string | number; id: string };

const PayloadSchema = z.strictObject({
  o: z.string(),
  f: z.string(),
  s: z.union([z.string(), z.number()]),
  i: z.string(),
});

function invalid(message = 'The cursor is not valid for this request.'): HttpError {
  return new HttpError('INVALID_QUERY_PARAMETER', message, [{ field: 'cursor', issue: message }]);
}

/** A stable hash of the filters a cursor is bound to (key order does not matter). */
export function filtersHash(filters: Record<string, unknown>): string {
  const sorted = Object.keys(filters)
    .sort()
    .map((key) => [key, filters[key] ?? null]);
  return sha256Hex(JSON.stringify(sorted));
}

function mac(secret: Buffer, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

/**
 * Opaque cursor: base64url JSON of {org, filters hash, last sort value, last id} plus an
 * HMAC-SHA256 over it with the server's secret. Edited, foreign-org or other-filter cursors fail.
 */
export function encodeCursor(
  secret: Buffer,
  scope: { orgId: string; filters: string },
  position: CursorPosition,
): string {
  const payload = Buffer.from(
    JSON.stringify({ o: scope.orgId, f: scope.filters, s: position.sortValue, i: position.id }),
  ).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

export function decodeCursor(
  secret: Buffer,
  scope: { orgId: string; filters: string },
  cursor: string,
): CursorPosition {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined || cursor.length > 2048) throw invalid();
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let decoded: z.infer<typeof PayloadSchema>;
  try {
    decoded = PayloadSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    throw invalid();
  }
  if (decoded.o !== scope.orgId) throw invalid();
  if (decoded.f !== scope.filters) {
    throw invalid('The cursor was issued for different filters; restart without a cursor.');
  }
  return { sortValue: decoded.s, id: decoded.i };
}

/** The insertion sequence a cursor carries as its tiebreak. */
export function seqOf(id: string): number {
  if (!/^[0-9]{1,15}$/.test(id)) throw invalid();
  return Number(id);
}

export type Query = Record<string, unknown>;

/** A single-valued string query parameter, or undefined; repeated or nested values are 400. */
export function queryString(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new HttpError('INVALID_QUERY_PARAMETER', `${name} must be given once, as a string.`, [
      { field: name, issue: 'must be a single string' },
    ]);
  }
  return value;
}

export function badQuery(name: string, issue: string): HttpError {
  return new HttpError('INVALID_QUERY_PARAMETER', `${name} ${issue}.`, [{ field: name, issue }]);
}

/** `limit`: default 50, 1..200 (DESIGN.md). */
export function parseLimit(query: Query): number {
  const raw = queryString(query, 'limit');
  if (raw === undefined) return LIMIT_DEFAULT;
  if (!/^[0-9]{1,4}$/.test(raw))
    throw badQuery('limit', `must be an integer from 1 to ${LIMIT_MAX}`);
  const limit = Number(raw);
  if (limit < 1 || limit > LIMIT_MAX) {
    throw badQuery('limit', `must be an integer from 1 to ${LIMIT_MAX}`);
  }
  return limit;
}

/** An ISO 8601 timestamp parameter (with offset), normalized to UTC ISO. */
function parseTimestamp(query: Query, name: string): string | undefined {
  const raw = queryString(query, name);
  if (raw === undefined) return undefined;
  const valid = z.iso.datetime({ offset: true }).safeParse(raw);
  const ms = Date.parse(raw);
  if (!valid.success || Number.isNaN(ms)) {
    throw badQuery(name, 'must be an ISO 8601 timestamp such as 2025-01-31T00:00:00Z');
  }
  return new Date(ms).toISOString();
}

/** Validates `createdFrom` <= `createdTo` when both are present. */
export function parseDateRange(query: Query): { from?: string; to?: string } {
  const from = parseTimestamp(query, 'createdFrom');
  const to = parseTimestamp(query, 'createdTo');
  if (from !== undefined && to !== undefined && from > to) {
    throw badQuery('createdFrom', 'must not be after createdTo');
  }
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** One page from rows fetched with limit + 1: items and the cursor of the next page. */
export function pageOf<T>(
  rows: T[],
  limit: number,
  next: (last: T) => string,
): { items: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { items: rows, nextCursor: null };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: last === undefined ? null : next(last) };
}
