import express, { type Request, type Router } from 'express';
import { CreateAccountRequestSchema, METADATA_MAX_BYTES } from '@settlement/protocol';
import type { AppContext } from '../context';
import { HttpError, requestIds } from '../errors';
import {
  accountDetail,
  createAccount,
  queryAccounts,
  requireAccount,
  toAccount,
  type AccountFilters,
} from '../domain/accounts';
import { accountBalances } from '../domain/ledger-balances';
import { principalOf, requireScope } from './auth';
import { jsonBody } from './body';
import {
  badQuery,
  decodeCursor,
  encodeCursor,
  filtersHash,
  pageOf,
  parseLimit,
  queryString,
  seqOf,
} from './cursor';
import { accountTransactionsPage, pathParam } from './transactions-routes';
import { parseBody } from './validation';
import { walletsPage } from './wallets-routes';

function text(req: Request, name: string, max: number): string | undefined {
  const value = queryString(req.query, name);
  if (value !== undefined && (value.length < 1 || value.length > max)) {
    throw badQuery(name, `must be 1 to ${max} characters`);
  }
  return value;
}

/** Metadata over 16 KiB is a domain rule (422), checked before the shape (400). */
function hasOversizeMetadata(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || !('metadata' in body)) return false;
  const size = Buffer.byteLength(JSON.stringify(body.metadata), 'utf8');
  return size > METADATA_MAX_BYTES;
}

/** /api/v1/ledger/accounts: create, list, detail and the three sub-lists. */
export function accountsRoutes(ctx: AppContext): Router {
  const router = express.Router();

  router.post('/ledger/accounts', requireScope('wallets:create'), (req, res) => {
    const { orgId } = principalOf(req);
    const body = jsonBody(req);
    const { requestId, correlationId } = requestIds(req);
    const trace = { requestId, correlationId, idempotencyKey: null, now: new Date(ctx.nowMs()) };
    if (hasOversizeMetadata(body)) throw new HttpError('ACCOUNT_METADATA_TOO_LARGE');
    const input = parseBody(CreateAccountRequestSchema, body);
    res.status(201).json(createAccount(ctx.db, orgId, input, trace));
  });

  router.get('/ledger/accounts', requireScope('accounts:read'), (req, res) => {
    const { orgId } = principalOf(req);
    const limit = parseLimit(req.query);
    const filters: AccountFilters = {};
    const search = text(req, 'search', 200);
    const externalId = text(req, 'externalId', 128);
    if (search !== undefined) filters.search = search;
    if (externalId !== undefined) filters.externalId = externalId;
    const scope = { orgId, filters: filtersHash({ list: 'accounts', ...filters }) };
    const cursor = queryString(req.query, 'cursor');
    let after: { createdAt: string; seq: number } | null = null;
    if (cursor !== undefined) {
      const position = decodeCursor(ctx.cursorSecret, scope, cursor);
      if (typeof position.sortValue !== 'string') throw badQuery('cursor', 'is not valid');
      after = { createdAt: position.sortValue, seq: seqOf(position.id) };
    }
    const page = pageOf(queryAccounts(ctx.db, orgId, filters, after, limit + 1), limit, (last) =>
      encodeCursor(ctx.cursorSecret, scope, {
        sortValue: last.created_at,
        id: String(last.seq ?? 0),
      }),
    );
    res.json({ items: page.items.map(toAccount), nextCursor: page.nextCursor });
  });

  router.get('/ledger/accounts/:accountId', requireScope('accounts:read'), (req, res) => {
    res.json(accountDetail(ctx.db, principalOf(req).orgId, pathParam(req.params.accountId)));
  });

  router.get('/ledger/accounts/:accountId/wallets', requireScope('wallets:read'), (req, res) => {
    const { orgId } = principalOf(req);
    const account = requireAccount(ctx.db, orgId, pathParam(req.params.accountId));
    if (req.query.accountId !== undefined) {
      throw badQuery('accountId', 'is given by the path of this sub-list');
    }
    res.json(walletsPage(ctx, orgId, req.query, { accountId: account.id }));
  });

  router.get('/ledger/accounts/:accountId/balances', requireScope('wallets:read'), (req, res) => {
    const { orgId } = principalOf(req);
    const account = requireAccount(ctx.db, orgId, pathParam(req.params.accountId));
    res.json({ items: accountBalances(ctx.db, account.id) });
  });

  router.get(
    '/ledger/accounts/:accountId/transactions',
    requireScope('transactions:read'),
    (req, res) => {
      const { orgId } = principalOf(req);
      res.json(accountTransactionsPage(ctx, orgId, pathParam(req.params.accountId), req.query));
    },
  );

  return router;
}
