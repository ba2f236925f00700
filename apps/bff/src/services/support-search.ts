import {
  TransactionSchema,
  WalletSchema,
  isTronAddress,
  listEnvelope,
  type SupportMatchKind,
  type SupportSearchResult,
  type Transaction,
  type Wallet,
} from '@settlement/protocol';
import type { SettlementClient } from '@settlement/client';
import type { EventStore, StoredEvent } from '../store/events';
import type { JournalEntry } from '../store/journal';
import type { AuditRecord, RequestLogRow } from '../store/logs';
import { recordAttempts, type Services } from './services';

type MatchKind = SupportMatchKind;
/** The answer of GET /bff/support/search (contract in packages/protocol). */

const MAX_TRANSACTIONS = 20;
const transactionList = listEnvelope(TransactionSchema);
const walletList = listEnvelope(WalletSchema);

function parse(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return null;
  }
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Support look-up: recognises what `q` is (correlationId, requestId, x-request-id, event id,
 * transaction id, clientReference, txHash, idempotency key, operation id, wallet address) and
 * gathers the transactions from upstream, the stored events in time order, the upstream calls
 * from the request log and the operator actions from the audit log. Read-only.
 */
export async function supportSearch(
  services: Services,
  store: EventStore,
  input: { q: string; operator: string },
): Promise<SupportSearchResult> {
  return toSearchResult(await gatherSupport(services, store, input));
}

/** Everything that belongs to `q`, as the stores hold it (the timeline reads the same). */
export type SupportFindings = {
  query: string;
  matched: SupportMatchKind[];
  transactions: Transaction[];
  wallets: Wallet[];
  /** In time order, each once. */
  events: StoredEvent[];
  requests: RequestLogRow[];
  audit: AuditRecord[];
  journal: JournalEntry[];
};

export async function gatherSupport(
  services: Services,
  store: EventStore,
  input: { q: string; operator: string },
): Promise<SupportFindings> {
  const { q } = input;
  const matched = new Set<MatchKind>();
  const reader = services.upstream.clientFor('transactions:read')?.client ?? null;
  const walletReader = services.upstream.clientFor('wallets:read')?.client ?? null;
  const onAttempt = recordAttempts(services, {
    operator: input.operator,
    operation: 'support.search',
    operationId: null,
  });

  async function get(client: SettlementClient | null, target: string): Promise<unknown> {
    if (!client) return null;
    try {
      const response = await client.send('GET', target, { onAttempt, maxAttempts: 1 });
      return response.status === 200 ? parse(response.bodyBytes) : null;
    } catch {
      return null;
    }
  }

  // Local stores first: cheap and they tell us what q is.
  const events = await store.search(q);
  for (const event of events) {
    if (event.id === q) matched.add('eventId');
    if (event.correlationId === q) matched.add('correlationId');
    if (event.txHash === q) matched.add('txHash');
    if (event.transactionId === q) matched.add('transactionId');
    if (event.walletId === q) matched.add('walletId');
    if (event.accountId === q) matched.add('accountId');
  }
  const requests = await services.logs.findRequests(q);
  for (const call of requests) {
    if (call.upstreamRequestId === q) matched.add('requestId');
    if (call.requestIdSent === q) matched.add('x-request-id');
    if (call.correlationId === q) matched.add('correlationId');
    if (call.idempotencyKey === q) matched.add('idempotencyKey');
    if (call.operationId === q) matched.add('operationId');
  }
  const audit = await services.logs.findAudit(q);
  const journal = await services.journal.search(q);
  for (const entry of journal) {
    if (entry.operationId === q) matched.add('operationId');
    if (entry.idempotencyKey === q) matched.add('idempotencyKey');
    if (entry.clientReference === q) matched.add('clientReference');
  }

  // Upstream: q as a transaction id, a clientReference, a wallet address.
  const transactions: Transaction[] = [];
  const direct = TransactionSchema.safeParse(
    await get(reader, `/api/v1/transactions/${encodeURIComponent(q)}`),
  );
  if (direct.success) {
    matched.add('transactionId');
    transactions.push(direct.data);
  }
  const byReference = transactionList.safeParse(
    await get(reader, `/api/v1/transactions?clientReference=${encodeURIComponent(q)}`),
  );
  if (byReference.success && byReference.data.items.length > 0) {
    matched.add('clientReference');
    transactions.push(...byReference.data.items);
  }
  let wallets: Wallet[] = [];
  if (isTronAddress(q)) {
    const found = walletList.safeParse(
      await get(walletReader, `/api/v1/wallets?addressContains=${encodeURIComponent(q)}`),
    );
    if (found.success && found.data.items.length > 0) {
      matched.add('walletAddress');
      wallets = found.data.items.filter((wallet) => wallet.address === q);
    }
    if (events.some((e) => e.data.toAddress === q || e.data.fromAddress === q))
      matched.add('walletAddress');
  }

  // Transactions the local records point at.
  const ids = new Set<string>();
  for (const event of events) {
    for (const key of ['transactionId', 'sourceTransactionId', 'destinationTransactionId']) {
      const value = event.data[key];
      if (typeof value === 'string' && value) ids.add(value);
    }
  }
  for (const entry of audit) {
    if (entry.action === 'transaction.create' && entry.resourceId) ids.add(entry.resourceId);
  }
  for (const entry of journal) {
    if (entry.operation !== 'transactions.create' || !entry.response) continue;
    const id = (parse(entry.response) as { id?: unknown } | null)?.id;
    if (typeof id === 'string') ids.add(id);
  }
  for (const id of transactions.map((t) => t.id)) ids.delete(id);
  for (const id of [...ids].slice(0, MAX_TRANSACTIONS)) {
    const found = TransactionSchema.safeParse(
      await get(reader, `/api/v1/transactions/${encodeURIComponent(id)}`),
    );
    if (found.success) transactions.push(found.data);
  }
  const allTransactions = uniqueBy(transactions, (t) => t.id).slice(0, MAX_TRANSACTIONS);

  // Expand: everything that belongs to the transactions found.
  const correlationIds = new Set(
    allTransactions.map((t) => t.correlationId).filter((c): c is string => typeof c === 'string'),
  );
  const moreEvents = await store.forTransactions(allTransactions.map((t) => t.id));
  const moreRequests = (
    await Promise.all([...correlationIds].map((c) => services.logs.findRequests(c)))
  ).flat();
  const moreAudit = (
    await Promise.all([
      ...[...correlationIds].map((c) => services.logs.findAudit(c)),
      ...allTransactions.map((t) => services.logs.findAudit(t.id)),
    ])
  ).flat();

  const allEvents = uniqueBy([...events, ...moreEvents], (e) => e.id).sort(
    (a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.seq - b.seq,
  );
  return {
    query: q,
    matched: [...matched],
    transactions: allTransactions,
    wallets,
    events: allEvents,
    requests: uniqueBy([...requests, ...moreRequests], (r) => String(r.id)).sort(
      (a, b) => a.at - b.at || a.id - b.id,
    ),
    audit: uniqueBy([...audit, ...moreAudit], (a) => String(a.id)).sort(
      (a, b) => a.at - b.at || a.id - b.id,
    ),
    journal,
  };
}

const iso = (at: number) => new Date(at).toISOString();

function toSearchResult(found: SupportFindings): SupportSearchResult {
  return {
    query: found.query,
    kinds: found.matched,
    transactions: found.transactions,
    wallets: found.wallets,
    events: found.events.map(({ seq: _seq, raw: _raw, ...event }) => event),
    requests: found.requests.map((r) => ({
      at: iso(r.at),
      operator: r.operator,
      operation: r.operation,
      operationId: r.operationId,
      method: r.method,
      path: r.path,
      attempt: r.attempt,
      status: r.status,
      durationMs: r.durationMs,
      requestId: r.requestIdSent,
      requestIdSent: r.requestIdSent,
      upstreamRequestId: r.upstreamRequestId,
      correlationId: r.correlationId,
      idempotencyKey: r.idempotencyKey,
      error: r.error,
    })),
    actions: found.audit.map(({ id: _id, ...a }) => ({ ...a, at: iso(a.at) })),
    operations: found.journal.map((entry) => ({
      operationId: entry.operationId,
      operation: entry.operation,
      operator: entry.operator,
      state: entry.state,
      status: entry.status,
      idempotencyKey: entry.idempotencyKey,
      clientReference: entry.clientReference,
      upstreamRequestId: entry.upstreamRequestId,
      correlationId: entry.correlationId,
      createdAt: new Date(entry.createdAt).toISOString(),
    })),
  };
}
