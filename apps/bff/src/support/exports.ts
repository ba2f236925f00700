import {
  AUDIT_LIMIT_MAX,
  LIMIT_MAX,
  atomicToDisplay,
  decimalsOf,
  type ExportSubject,
  type Transaction,
} from '@settlement/protocol';
import type { KeyScope } from '../config';
import { HttpError } from '../errors';
import { recordAttempts, type Services } from '../services/services';
import { matchOperation } from '../services/operations';
import type { AuditFilter } from '../store/logs';

/** One CSV export: its header row and every data row, page by page (never all in memory). */
export type ExportPlan = {
  header: string[];
  /** Pages of rows, each awaited (upstream pages and the audit log's alike). */
  rows: () => AsyncGenerator<string[][]>;
};

/**
 * A spreadsheet runs a cell that begins with = + - @ (or tab/CR, which some strip first) as a
 * formula. A leading apostrophe shows the text as written and runs nothing (OWASP CSV injection).
 */
export function inertCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const text = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** The list filters an upstream list accepts, from the export's own query (cursor/limit never). */
function listFilters(path: string, query: Record<string, unknown>): Record<string, string> {
  const accepted = matchOperation('GET', path)?.query ?? [];
  const filters: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (name === 'cursor' || name === 'limit') continue;
    if (!accepted.includes(name)) {
      throw new HttpError('INVALID_QUERY_PARAMETER', `${name} is not a filter of this list.`);
    }
    if (typeof value !== 'string') {
      throw new HttpError('INVALID_QUERY_PARAMETER', `${name} must be given once.`);
    }
    filters[name] = value;
  }
  return filters;
}

function clientOf(services: Services, scope: KeyScope | null) {
  const chosen = services.upstream.clientFor(scope);
  if (!chosen) {
    throw new HttpError('FORBIDDEN', `No configured API key has the scope ${scope ?? 'any'}.`);
  }
  return chosen.client;
}

/** Walks every cursor page of an upstream list (limit 200), yielding each page's items. */
async function* pages<T>(
  list: (
    query: Record<string, string | number>,
  ) => Promise<{ items: T[]; nextCursor: string | null }>,
  filters: Record<string, string>,
): AsyncGenerator<T[]> {
  let cursor: string | null = null;
  do {
    const page = await list({ ...filters, limit: LIMIT_MAX, ...(cursor ? { cursor } : {}) });
    yield page.items;
    cursor = page.nextCursor;
  } while (cursor !== null);
}

export async function exportPlan(
  services: Services,
  subject: ExportSubject,
  input: { operator: string; query: Record<string, unknown>; signal: AbortSignal },
): Promise<ExportPlan> {
  const call = {
    signal: input.signal,
    onAttempt: recordAttempts(services, {
      operator: input.operator,
      operation: `export.${subject}`,
      operationId: null,
    }),
  };
  switch (subject) {
    case 'transactions': {
      const filters = listFilters('/api/v1/transactions', input.query);
      const client = clientOf(services, 'transactions:read');
      const catalog = await clientOf(services, null).listAssets(call);
      const decimals = (asset: string) => decimalsOf(catalog.items, asset);
      const amount = (atomic: string | null | undefined, asset: string) => {
        const d = decimals(asset);
        return atomic === null || atomic === undefined || d === null
          ? ''
          : atomicToDisplay(atomic, d);
      };
      const row = (t: Transaction) => [
        t.id,
        t.createdAt,
        t.updatedAt,
        t.type,
        t.status,
        t.chain,
        t.asset,
        amount(t.amountAtomic, t.asset),
        t.amountAtomic,
        t.direction ?? '',
        t.walletId,
        t.account.id,
        t.account.name ?? '',
        text(t.fromAddress ?? t.onChainDetails?.fromAddress),
        text(t.toAddress ?? t.onChainDetails?.toAddress),
        text(t.onChainDetails?.txHash),
        text(t.clientReference),
        text(t.billingReference),
        text(t.correlationId),
        t.networkFeeSummary
          ? amount(t.networkFeeSummary.actualFeeAtomic, t.networkFeeSummary.asset)
          : '',
        text(t.networkFeeSummary?.actualFeeAtomic),
        text(t.failureCode),
      ];
      return {
        header: [
          'id',
          'createdAt',
          'updatedAt',
          'type',
          'status',
          'chain',
          'asset',
          'amount',
          'amountAtomic',
          'direction',
          'walletId',
          'accountId',
          'accountName',
          'fromAddress',
          'toAddress',
          'txHash',
          'clientReference',
          'billingReference',
          'correlationId',
          'networkFee',
          'networkFeeAtomic',
          'failureCode',
        ],
        rows: async function* () {
          for await (const items of pages((q) => client.listTransactions(q, call), filters)) {
            yield items.map(row);
          }
        },
      };
    }
    case 'wallets': {
      const filters = listFilters('/api/v1/wallets', input.query);
      const client = clientOf(services, 'wallets:read');
      return {
        header: [
          'id',
          'chain',
          'address',
          'status',
          'accountId',
          'accountName',
          'createdAt',
          'updatedAt',
        ],
        rows: async function* () {
          for await (const items of pages((q) => client.listWallets(q, call), filters)) {
            yield items.map((w) => [
              w.id,
              w.chain,
              w.address,
              w.status,
              w.accountId,
              w.accountName,
              w.createdAt,
              w.updatedAt,
            ]);
          }
        },
      };
    }
    case 'accounts': {
      const filters = listFilters('/api/v1/ledger/accounts', input.query);
      const client = clientOf(services, 'accounts:read');
      return {
        header: ['id', 'name', 'externalId', 'metadata', 'createdAt', 'updatedAt'],
        rows: async function* () {
          for await (const items of pages((q) => client.listAccounts(q, call), filters)) {
            yield items.map((a) => [
              a.id,
              a.name,
              text(a.externalId),
              text(a.metadata),
              a.createdAt,
              a.updatedAt,
            ]);
          }
        },
      };
    }
    case 'audit': {
      const filter = auditFilterOf(input.query);
      const snapshotAt = services.now();
      return {
        header: [
          'id',
          'at',
          'operator',
          'action',
          'outcome',
          'operationId',
          'idempotencyKey',
          'upstreamRequestId',
          'correlationId',
          'resourceId',
          'detail',
        ],
        // Audit rows are walked by row id under one snapshot: rows written meanwhile stay out.
        rows: async function* () {
          let afterId = 0;
          for (;;) {
            const items = await services.logs.auditAfter({
              snapshotAt,
              filter,
              afterId,
              limit: AUDIT_LIMIT_MAX,
            });
            if (items.length === 0) return;
            afterId = items.at(-1)?.id ?? afterId;
            yield items.map((a) => [
              String(a.id),
              new Date(a.at).toISOString(),
              text(a.operator),
              a.action,
              a.outcome,
              text(a.operationId),
              text(a.idempotencyKey),
              text(a.upstreamRequestId),
              text(a.correlationId),
              text(a.resourceId),
              text(a.detail),
            ]);
          }
        },
      };
    }
  }
}

/** operator, action, from, to (ISO instants) of the audit log's filters. */
function auditFilterOf(query: Record<string, unknown>): AuditFilter {
  const instant = (name: string) => {
    const value = query[name];
    if (value === undefined) return undefined;
    const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(ms)) {
      throw new HttpError('INVALID_QUERY_PARAMETER', `${name} must be an ISO 8601 instant.`);
    }
    return ms;
  };
  const word = (name: string) => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(value)) {
      throw new HttpError('INVALID_QUERY_PARAMETER', `${name} must be 1-64 visible characters.`);
    }
    return value;
  };
  return {
    operator: word('operator'),
    action: word('action'),
    from: instant('from'),
    to: instant('to'),
  };
}
