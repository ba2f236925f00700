import { OutcomeUnknownError, SettlementApiError } from '@settlement/client';
import {
  AccountSchema,
  AssetCatalogSchema,
  TransactionSchema,
  WalletSchema,
  isTronAddress,
  listEnvelope,
  type Asset,
  type Transaction,
  type Wallet,
} from '@settlement/protocol';
import { z } from 'zod';
import type { KeyScope } from '../config';
import { HttpError } from '../errors';
import { recordAttempts, type Services } from '../services/services';

/**
 * The reads the policy needs from the upstream (wallets, destination, recent withdrawals,
 * asset catalog), signed with the least-privileged key and recorded in the request log.
 */

const PAGE_LIMIT = 200;
/** Bound on the pages read for one limit window (10,000 transactions). */
const MAX_PAGES = 50;

async function read<S extends z.core.$ZodType>(
  services: Services,
  scope: KeyScope | null,
  target: string,
  schema: S,
  context: { operator: string | null; operation: string },
): Promise<z.infer<S> | null> {
  const chosen = services.upstream.clientFor(scope);
  if (!chosen)
    throw new HttpError('FORBIDDEN', `No configured API key has the scope ${scope ?? 'any'}.`);
  let response;
  try {
    response = await chosen.client.send('GET', target, {
      onAttempt: recordAttempts(services, { ...context, operationId: null }),
    });
  } catch (error) {
    if (error instanceof OutcomeUnknownError || error instanceof SettlementApiError)
      throw new HttpError(
        'UPSTREAM_UNAVAILABLE',
        'The upstream could not be reached or did not answer in time.',
      );
    throw error;
  }
  if (response.status === 404) return null;
  if (response.status !== 200)
    throw new HttpError(
      'UPSTREAM_UNAVAILABLE',
      `The upstream answered ${response.status} to a policy lookup.`,
    );
  const parsed = z.safeParse(schema, JSON.parse(Buffer.from(response.bodyBytes).toString('utf8')));
  if (!parsed.success)
    throw new HttpError('UPSTREAM_UNAVAILABLE', 'The upstream answered an unexpected shape.');
  return parsed.data;
}

export type UpstreamFacts = ReturnType<typeof createUpstreamFacts>;

export function createUpstreamFacts(services: Services) {
  const context = (operator: string | null) => ({ operator, operation: 'policy.lookup' });
  return {
    wallet: (walletId: string, operator: string | null): Promise<Wallet | null> =>
      read(
        services,
        'wallets:read',
        `/api/v1/wallets/${encodeURIComponent(walletId)}`,
        WalletSchema,
        context(operator),
      ),
    async accountExists(accountId: string, operator: string | null): Promise<boolean> {
      const found = await read(
        services,
        'accounts:read',
        `/api/v1/ledger/accounts/${encodeURIComponent(accountId)}`,
        AccountSchema,
        context(operator),
      );
      return found !== null;
    },
    /** Whether `address` is a wallet of the organization on `chain`. */
    async isInternal(chain: string, address: string, operator: string | null): Promise<boolean> {
      // No wallet has an invalid address (and the upstream refuses to search for one).
      if (!isTronAddress(address)) return false;
      const query = `chain=${encodeURIComponent(chain)}&addressContains=${encodeURIComponent(address)}&limit=${PAGE_LIMIT}`;
      const page = await read(
        services,
        'wallets:read',
        `/api/v1/wallets?${query}`,
        listEnvelope(WalletSchema),
        context(operator),
      );
      return (page?.items ?? []).some((w) => w.address === address && w.chain === chain);
    },
    async assets(operator: string | null): Promise<Asset[]> {
      const catalog = await read(
        services,
        null,
        '/api/v1/assets',
        AssetCatalogSchema,
        context(operator),
      );
      return catalog?.items ?? [];
    },
    /** Transactions of `asset` created since `sinceMs`, every page (bounded). */
    async transactionsSince(
      asset: string,
      sinceMs: number,
      operator: string | null,
    ): Promise<Transaction[]> {
      const items: Transaction[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const query: string = [
          `asset=${encodeURIComponent(asset)}`,
          `createdFrom=${encodeURIComponent(new Date(sinceMs).toISOString())}`,
          `limit=${PAGE_LIMIT}`,
          ...(cursor ? [`cursor=${encodeURIComponent(cursor)}`] : []),
        ].join('&');
        const result: { items: Transaction[]; nextCursor: string | null } | null = await read(
          services,
          'transactions:read',
          `/api/v1/transactions?${query}`,
          listEnvelope(TransactionSchema),
          context(operator),
        );
        if (!result) break;
        items.push(...result.items);
        cursor = result.nextCursor;
        if (!cursor) break;
      }
      return items;
    },
  };
}
