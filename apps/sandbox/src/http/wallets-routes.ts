import express, { type Router } from 'express';
import {
  CHAINS,
  CreateWalletRequestSchema,
  SORT_ORDERS,
  WALLET_SORT_FIELDS,
  WALLET_STATUSES,
  type ListEnvelope,
  type Wallet,
} from '@settlement/protocol';
import type { AppContext } from '../context';
import { requestIds } from '../errors';
import { walletBalances } from '../domain/ledger-balances';
import {
  createWallet,
  queryWallets,
  requireWallet,
  toWallet,
  type WalletFilters,
} from '../domain/wallets';
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
import { pathParam } from './transactions-routes';
import { parseBody } from './validation';

function oneOf<T extends string>(query: Query, name: string, values: readonly T[]): T | undefined {
  const value = queryString(query, name);
  if (value === undefined) return undefined;
  const match = values.find((v) => v === value);
  if (match === undefined) throw badQuery(name, `must be one of ${values.join(', ')}`);
  return match;
}

/** Every wallet list parameter of the interface, validated (400 INVALID_QUERY_PARAMETER). */
function parseWalletFilters(query: Query): WalletFilters {
  const range = parseDateRange(query);
  const filters: WalletFilters = {
    sortBy: oneOf(query, 'sortBy', WALLET_SORT_FIELDS) ?? 'createdAt',
    sortOrder: oneOf(query, 'sortOrder', SORT_ORDERS) ?? 'desc',
  };
  const status = oneOf(query, 'status', WALLET_STATUSES);
  const chain = oneOf(query, 'chain', CHAINS);
  const addressContains = queryString(query, 'addressContains');
  if (addressContains !== undefined && !/^[1-9A-HJ-NP-Za-km-z]{1,64}$/.test(addressContains)) {
    throw badQuery('addressContains', 'must be 1 to 64 base58 characters');
  }
  const accountId = queryString(query, 'accountId');
  if (accountId !== undefined && (accountId.length < 1 || accountId.length > 200)) {
    throw badQuery('accountId', 'must be 1 to 200 characters');
  }
  if (status !== undefined) filters.status = status;
  if (chain !== undefined) filters.chain = chain;
  if (addressContains !== undefined) filters.addressContains = addressContains;
  if (range.from !== undefined) filters.createdFrom = range.from;
  if (range.to !== undefined) filters.createdTo = range.to;
  if (accountId !== undefined) filters.accountId = accountId;
  return filters;
}

/** One page of the org's wallets; `pinned.accountId` serves the account sub-list. */
export function walletsPage(
  ctx: AppContext,
  orgId: string,
  query: Query,
  pinned: { accountId?: string } = {},
): ListEnvelope<Wallet> {
  const limit = parseLimit(query);
  const filters: WalletFilters = { ...parseWalletFilters(query), ...pinned };
  const scope = { orgId, filters: filtersHash({ list: 'wallets', ...filters }) };
  const cursor = queryString(query, 'cursor');
  let after: { sortValue: string; seq: number } | null = null;
  if (cursor !== undefined) {
    const position = decodeCursor(ctx.cursorSecret, scope, cursor);
    if (typeof position.sortValue !== 'string') throw badQuery('cursor', 'is not valid');
    after = { sortValue: position.sortValue, seq: seqOf(position.id) };
  }
  const rows = queryWallets(ctx.db, orgId, filters, after, limit + 1);
  const page = pageOf(rows, limit, (last) =>
    encodeCursor(ctx.cursorSecret, scope, {
      sortValue: filters.sortBy === 'updatedAt' ? last.updated_at : last.created_at,
      id: String(last.seq ?? 0),
    }),
  );
  return { items: page.items.map(toWallet), nextCursor: page.nextCursor };
}

/** /api/v1/wallets: create (idempotent), list, detail, balances. */
export function walletsRoutes(ctx: AppContext): Router {
  const router = express.Router();

  router.post('/wallets', requireScope('wallets:create'), (req, res) => {
    const { orgId } = principalOf(req);
    const key = idempotencyKeyOf(req);
    const { requestId, correlationId } = requestIds(req);
    const nowMs = ctx.nowMs();
    const outcome = runIdempotent(
      ctx.db,
      { orgId, key, fingerprint: fingerprintOf(req), conflictCode: 'IDEMPOTENCY_CONFLICT', nowMs },
      () => {
        const input = parseBody(CreateWalletRequestSchema, jsonBody(req));
        const wallet = createWallet(ctx.db, orgId, input, {
          requestId,
          correlationId,
          idempotencyKey: key,
          now: new Date(nowMs),
        });
        return { status: 201, body: wallet };
      },
    );
    sendIdempotent(res, outcome);
  });

  router.get('/wallets', requireScope('wallets:read'), (req, res) => {
    res.json(walletsPage(ctx, principalOf(req).orgId, req.query));
  });

  router.get('/wallets/:walletId', requireScope('wallets:read'), (req, res) => {
    res.json(
      toWallet(requireWallet(ctx.db, principalOf(req).orgId, pathParam(req.params.walletId))),
    );
  });

  router.get('/wallets/:walletId/balances', requireScope('wallets:read'), (req, res) => {
    const wallet = requireWallet(ctx.db, principalOf(req).orgId, pathParam(req.params.walletId));
    res.json({ items: walletBalances(ctx.db, wallet.id) });
  });

  return router;
}
