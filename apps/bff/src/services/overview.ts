import { OutcomeUnknownError, SettlementApiError } from '@settlement/client';
import type { RawResponse } from '@settlement/client';
import {
  BalanceListSchema,
  LIMIT_MAX,
  TransactionSchema,
  WalletSchema,
  listEnvelope,
  sumBalances,
  sumInFlight,
  type Balance,
  type Overview,
  type Transaction,
} from '@settlement/protocol';
import { z } from 'zod';
import type { KeyScope } from '../config';
import { HttpError } from '../errors';
import type { WalletLabelStore } from '../store/wallet-labels';
import { recordAttempts, type Services } from './services';

/** Wallets read for one overview; past this the totals say they are partial. */
const OVERVIEW_MAX_WALLETS = 1_000;
/** Pending withdrawals read for the in-flight figures (5 pages). */
const IN_FLIGHT_MAX = 1_000;
/** Balance reads at once: a few, so one overview does not crowd out other operators' calls. */
const CONCURRENCY = 6;
const OLDEST_SHOWN = 5;

const walletPage = listEnvelope(WalletSchema);
const transactionPage = listEnvelope(TransactionSchema);

type Context = { operator: string; signal?: AbortSignal | undefined };

/** The upstream's answer to a GET; a client error (see `isNoAnswer`) when it gave none. */
async function answerOf(
  services: Services,
  scope: KeyScope,
  target: string,
  context: Context,
): Promise<RawResponse> {
  const chosen = services.upstream.clientFor(scope);
  if (!chosen) throw new HttpError('FORBIDDEN', `No configured API key has the scope ${scope}.`);
  return chosen.client.send('GET', target, {
    onAttempt: recordAttempts(services, {
      operator: context.operator,
      operation: 'overview.read',
      operationId: null,
    }),
    ...(context.signal ? { signal: context.signal } : {}),
  });
}

/** Every attempt ended without an answer: refused, cut or timed out. */
const isNoAnswer = (error: unknown) =>
  error instanceof OutcomeUnknownError || error instanceof SettlementApiError;

const noAnswerError = () =>
  new HttpError(
    'UPSTREAM_UNAVAILABLE',
    'The upstream could not be reached or did not answer in time.',
  );

function parseAnswer<S extends z.core.$ZodType>(
  response: RawResponse,
  target: string,
  schema: S,
): z.infer<S> {
  if (response.status !== 200)
    throw new HttpError(
      'UPSTREAM_UNAVAILABLE',
      `The upstream answered ${response.status} to ${target.split('?')[0] ?? target}.`,
    );
  const parsed = z.safeParse(schema, JSON.parse(Buffer.from(response.bodyBytes).toString('utf8')));
  if (!parsed.success)
    throw new HttpError('UPSTREAM_UNAVAILABLE', 'The upstream answered an unexpected shape.');
  return parsed.data;
}

async function read<S extends z.core.$ZodType>(
  services: Services,
  scope: KeyScope,
  target: string,
  schema: S,
  context: Context,
): Promise<z.infer<S>> {
  let response;
  try {
    response = await answerOf(services, scope, target, context);
  } catch (error) {
    if (isNoAnswer(error)) throw noAnswerError();
    throw error;
  }
  return parseAnswer(response, target, schema);
}

/** Every item of a cursor list up to `max`; `isPartial` when more were left. */
async function collect<T>(
  page: (cursor: string | null) => Promise<{ items: T[]; nextCursor: string | null }>,
  max: number,
): Promise<{ items: T[]; isPartial: boolean }> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const found = await page(cursor);
    items.push(...found.items);
    cursor = found.nextCursor;
  } while (cursor !== null && items.length < max);
  return { items: items.slice(0, max), isPartial: cursor !== null || items.length > max };
}

/** Runs `task` over `items` with at most `limit` at once, keeping the order of the results. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      const item = items[index];
      if (item !== undefined) results[index] = await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Money leaving the organization's wallets: withdrawals and the debit leg of internal ones. */
function isOutgoing(transaction: Transaction): boolean {
  if (transaction.type === 'WITHDRAWAL') return transaction.direction !== 'CREDIT';
  return transaction.type === 'INTERNAL_TRANSFER' && transaction.direction === 'DEBIT';
}

/**
 * The treasury overview: every wallet with its balances, totals per asset and chain, and the
 * withdrawals still PENDING. A wallet whose balances cannot be read is counted, not guessed.
 */
export async function treasuryOverview(
  services: Services,
  labels: WalletLabelStore,
  context: Context,
): Promise<Overview> {
  const query = (cursor: string | null, extra: string) =>
    `limit=${LIMIT_MAX}${extra}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const [wallets, pending] = await Promise.all([
    collect(
      (cursor) =>
        read(services, 'wallets:read', `/api/v1/wallets?${query(cursor, '')}`, walletPage, context),
      OVERVIEW_MAX_WALLETS,
    ),
    collect(
      (cursor) =>
        read(
          services,
          'transactions:read',
          `/api/v1/transactions?${query(cursor, '&status=PENDING')}`,
          transactionPage,
          context,
        ),
      IN_FLIGHT_MAX,
    ),
  ]);
  // A wallet the upstream answered for without its balances (a 503, an odd shape) is counted
  // as unread. An upstream that gives no answer at all gives none for the next wallet either:
  // the overview fails at once, instead of spending the whole retry budget again for every
  // round of wallets (a frozen upstream held it ~30 s a round of six).
  const stop = new AbortController();
  const signal = context.signal ? AbortSignal.any([context.signal, stop.signal]) : stop.signal;
  let stopped: HttpError | null = null;
  const balances = await mapLimited(wallets.items, CONCURRENCY, async (wallet) => {
    const target = `/api/v1/wallets/${encodeURIComponent(wallet.id)}/balances`;
    let response;
    try {
      response = await answerOf(services, 'wallets:read', target, { ...context, signal });
    } catch (error) {
      if (!isNoAnswer(error)) throw error;
      stopped ??= noAnswerError();
      stop.abort();
      throw stopped;
    }
    try {
      return parseAnswer(response, target, BalanceListSchema).items;
    } catch (error) {
      if (error instanceof HttpError && error.code === 'UPSTREAM_UNAVAILABLE') return null;
      throw error;
    }
  }).catch((error: unknown) => {
    // The reads the stop cut short fail too: the reason is the first that gave no answer.
    throw stopped ?? error;
  });
  const labelOf = new Map((await labels.list()).map((l) => [l.walletId, l.label]));
  const read_ = balances.filter((b): b is Balance[] => b !== null);
  const outgoing = pending.items
    .filter(isOutgoing)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return {
    generatedAt: new Date(services.now()).toISOString(),
    totals: sumBalances(read_),
    wallets: wallets.items.map((wallet, index) => ({
      id: wallet.id,
      accountId: wallet.accountId,
      accountName: wallet.accountName,
      chain: wallet.chain,
      address: wallet.address,
      status: wallet.status,
      label: labelOf.get(wallet.id) ?? null,
      balances: balances[index] ?? null,
    })),
    isPartial: wallets.isPartial,
    unreadWallets: balances.length - read_.length,
    inFlight: {
      count: outgoing.length,
      oldestCreatedAt: outgoing[0]?.createdAt ?? null,
      totals: sumInFlight(outgoing),
      oldest: outgoing.slice(0, OLDEST_SHOWN).map((t) => ({
        id: t.id,
        walletId: t.walletId,
        asset: t.asset,
        chain: t.chain,
        amountAtomic: t.amountAtomic,
        createdAt: t.createdAt,
      })),
    },
  };
}
