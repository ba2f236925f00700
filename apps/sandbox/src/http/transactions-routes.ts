import express, { type Request, type Router } from 'express';
import {
  CHAINS,
  CreateTransactionRequestSchema,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type ListEnvelope,
  type Transaction,
} from '@settlement/protocol';
import type { AppContext } from '../context';
import { requireAccount } from '../domain/accounts';
import { createWithdrawal } from '../domain/transactions-create';
import {
  queryTransactions,
  viewContextFor,
  type TransactionFilters,
  type TransactionPosition,
} from '../domain/transactions-list';
import { getOrgTransaction } from '../domain/transactions-store';
import { pageViewContext, toTransaction } from '../domain/transactions-view';
import { HttpError, requestIds } from '../errors';
import { principalOf, requireScope } from './auth';
import { jsonBody } from './body';
import {
  badQuery,
  decodeCursor,
  encodeCursor,
  filtersHash,
  pageOf,
  parseDateRange,
  parseLimit,
  queryString,
  seqOf,
  type Query,
} from './cursor';
import { fingerprintOf, idempotencyKeyOf, runIdempotent, sendIdempotent } from './idempotency';
import { parseBody } from './validation';

/** A path parameter as one string ('' when absent or repeated, which then matches nothing). */
export function pathParam(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function oneOf(query: Query, name: string, values: readonly string[]): string | undefined {
  const value = queryString(query, name);
  if (value !== undefined && !values.includes(value)) {
    throw badQuery(name, `must be one of ${values.join(', ')}`);
  }
  return value;
}

function text(query: Query, name: string, max: number): string | undefined {
  const value = queryString(query, name);
  if (value !== undefined && (value.length < 1 || value.length > max)) {
    throw badQuery(name, `must be 1 to ${max} characters`);
  }
  return value;
}

/** Every filter of GET /api/v1/transactions, validated (400 INVALID_QUERY_PARAMETER). */
function parseTransactionFilters(query: Query): TransactionFilters {
  const range = parseDateRange(query);
  const filters: TransactionFilters = {};
  const set = (key: keyof TransactionFilters, value: string | undefined) => {
    if (value !== undefined) filters[key] = value;
  };
  set('accountId', text(query, 'accountId', 200));
  set('walletId', text(query, 'walletId', 200));
  set('clientReference', text(query, 'clientReference', 128));
  set('chain', oneOf(query, 'chain', CHAINS));
  set('asset', text(query, 'asset', 32));
  set('status', oneOf(query, 'status', TRANSACTION_STATUSES));
  set('type', oneOf(query, 'type', TRANSACTION_TYPES));
  set('createdFrom', range.from);
  set('createdTo', range.to);
  return filters;
}

/**
 * One page of transactions for the org; `accountId` pins the account (the account sub-list).
 * Items are shaped by the same function as the detail, so list and detail always agree.
 */
function transactionsPage(
  ctx: AppContext,
  orgId: string,
  query: Query,
  pinned: { accountId?: string } = {},
): ListEnvelope<Transaction> {
  const limit = parseLimit(query);
  const filters: TransactionFilters = { ...parseTransactionFilters(query), ...pinned };
  const scope = { orgId, filters: filtersHash({ list: 'transactions', ...filters }) };
  const cursor = queryString(query, 'cursor');
  let before: TransactionPosition | null = null;
  if (cursor !== undefined) {
    const position = decodeCursor(ctx.cursorSecret, scope, cursor);
    if (typeof position.sortValue !== 'string') throw badQuery('cursor', 'is not valid');
    before = { createdAt: position.sortValue, seq: seqOf(position.id) };
  }
  const rows = queryTransactions(ctx.db, orgId, filters, before, limit + 1);
  const page = pageOf(rows, limit, (last) =>
    encodeCursor(ctx.cursorSecret, scope, { sortValue: last.createdAt, id: String(last.seq) }),
  );
  const view = pageViewContext(ctx.db, orgId, page.items, viewContextFor(ctx.db, orgId));
  return {
    items: page.items.map((row) => toTransaction(ctx.db, row, view)),
    nextCursor: page.nextCursor,
  };
}

/** GET /api/v1/ledger/accounts/{accountId}/transactions (404 for another org's account). */
export function accountTransactionsPage(
  ctx: AppContext,
  orgId: string,
  accountId: string,
  query: Query,
): ListEnvelope<Transaction> {
  requireAccount(ctx.db, orgId, accountId);
  if (query.accountId !== undefined) {
    throw badQuery('accountId', 'is given by the path of this sub-list');
  }
  return transactionsPage(ctx, orgId, query, { accountId });
}

function query(req: Request): Query {
  return req.query;
}

/** POST, list and detail of /api/v1/transactions (the account sub-list is routed by accounts). */
export function transactionsRoutes(ctx: AppContext): Router {
  const router = express.Router();

  router.post('/transactions', requireScope('withdrawals:create'), (req, res) => {
    const { orgId } = principalOf(req);
    const key = idempotencyKeyOf(req);
    const input = parseBody(CreateTransactionRequestSchema, jsonBody(req));
    const { requestId, correlationId } = requestIds(req);
    const nowMs = ctx.nowMs();
    const outcome = runIdempotent(
      ctx.db,
      { orgId, key, fingerprint: fingerprintOf(req), conflictCode: 'IDEMPOTENCY_CONFLICT', nowMs },
      () => ({
        status: 201,
        body: createWithdrawal(
          ctx.db,
          { orgId, requestId, correlationId, idempotencyKey: key, nowMs },
          input,
        ),
      }),
    );
    sendIdempotent(res, outcome);
  });

  router.get('/transactions', requireScope('transactions:read'), (req, res) => {
    res.json(transactionsPage(ctx, principalOf(req).orgId, query(req)));
  });

  router.get('/transactions/:id', requireScope('transactions:read'), (req, res) => {
    const { orgId } = principalOf(req);
    const row = getOrgTransaction(ctx.db, orgId, pathParam(req.params.id));
    if (!row)
      throw new HttpError('RESOURCE_NOT_FOUND', 'No such transaction in this organization.');
    res.json(toTransaction(ctx.db, row, viewContextFor(ctx.db, orgId)));
  });

  return router;
}
