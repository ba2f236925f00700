import type {
  SupportMatchKind,
  Timeline,
  TimelineIds,
  TimelineItem,
  TimelineKind,
  Transaction,
  WithdrawalRequest,
} from '@settlement/protocol';
import type { Services } from '../services/services';
import { gatherSupport } from '../services/support-search';
import type { EventStore, StoredEvent } from '../store/events';
import type { ApprovalLookup } from './approvals';

/** Bound of one timeline: a busy correlation id cannot make an unbounded answer. */
const MAX_TIMELINE_ITEMS = 1000;

const iso = (ms: number) => new Date(ms).toISOString();

/** Drops the ids that are absent, so each line carries only what applies. */
function ids(input: Partial<Record<keyof TimelineIds, string | null | undefined>>): TimelineIds {
  const out: TimelineIds = {};
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string' && value.length > 0) out[key as keyof TimelineIds] = value;
  }
  return out;
}

function envelopeOf(raw: unknown): 'mvp' | 'topic' | null {
  if (typeof raw !== 'object' || raw === null) return null;
  if ('op' in raw && raw.op === 'event') return 'topic';
  if ('type' in raw && raw.type === 'EVENT') return 'mvp';
  return null;
}

function str(data: Record<string, unknown>, key: string): string | null {
  const value = data[key];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function eventLine(event: StoredEvent): TimelineItem {
  const status = str(event.data, 'status');
  return {
    kind: 'event',
    at: event.occurredAt,
    title: `${event.type}${status ? ` (${status})` : ''}`,
    type: event.type,
    envelope: envelopeOf(event.raw),
    sequence: event.sequence,
    dedupe: 'kept-first-delivery',
    status,
    ids: ids({
      eventId: event.id,
      correlationId: event.correlationId,
      transactionId: event.transactionId,
      walletId: event.walletId,
      accountId: event.accountId,
      txHash: event.txHash,
      clientReference: str(event.data, 'clientReference'),
    }),
  };
}

function transactionLines(tx: Transaction): TimelineItem[] {
  const base = {
    transactionId: tx.id,
    correlationId: tx.correlationId,
    clientReference: tx.clientReference,
    walletId: tx.walletId,
    accountId: tx.account.id,
  };
  const lines: TimelineItem[] = (tx.balanceEffects ?? []).map((effect) => ({
    kind: 'balance-effect',
    at: effect.at,
    title: `${effect.kind} ${effect.asset}: posted ${effect.postedDeltaAtomic}, reserved ${effect.reservedDeltaAtomic}`,
    effect: effect.kind,
    asset: effect.asset,
    postedDeltaAtomic: effect.postedDeltaAtomic,
    reservedDeltaAtomic: effect.reservedDeltaAtomic,
    ids: ids({ ...base, walletId: effect.walletId, accountId: effect.accountId }),
  }));
  const chain = tx.onChainDetails;
  if (chain) {
    // The REST view holds the latest confirmation count only; its line sits at the
    // transaction's last update (when that count was observed).
    lines.push({
      kind: 'chain-confirmation',
      at: tx.updatedAt,
      title: `${chain.confirmations}/${chain.requiredConfirmations} confirmations${chain.blockNumber === null ? '' : ` (block ${chain.blockNumber})`}`,
      blockNumber: chain.blockNumber,
      confirmations: chain.confirmations,
      requiredConfirmations: chain.requiredConfirmations,
      status: tx.status,
      ids: ids({ ...base, txHash: chain.txHash, address: chain.toAddress }),
    });
  }
  return lines;
}

function approvalLines(request: WithdrawalRequest): TimelineItem[] {
  const base = ids({
    withdrawalRequestId: request.id,
    operationId: request.operationId,
    transactionId: request.transactionId,
    correlationId: request.correlationId,
    clientReference: request.clientReference,
    walletId: request.walletId,
    address: request.toAddress,
  });
  const line = (at: string, step: string, operator: string | null, title: string) => ({
    kind: 'approval' as const,
    at,
    step,
    operator,
    status: request.status,
    title,
    ids: base,
  });
  const lines = [
    line(
      request.createdAt,
      'requested',
      request.requester,
      `Withdrawal request by ${request.requester}: ${request.amountAtomic} ${request.asset} to ${request.toAddress}, ${request.approvalsRequired.count} approval(s) needed`,
    ),
    ...request.approvals.map((a) =>
      line(a.at, 'approved', a.operator, `Approved by ${a.operator} (${a.role})`),
    ),
  ];
  if (request.rejection) {
    lines.push(
      line(
        request.rejection.at,
        'rejected',
        request.rejection.operator,
        `Rejected by ${request.rejection.operator}: ${request.rejection.reason}`,
      ),
    );
  }
  if (['SUBMITTED', 'CANCELLED', 'EXPIRED', 'FAILED'].includes(request.status)) {
    const failure = request.failure ? `: ${request.failure.code}` : '';
    lines.push(
      line(
        request.updatedAt,
        request.status.toLowerCase(),
        null,
        `Request ${request.status.toLowerCase()}${failure}`,
      ),
    );
  }
  return lines;
}

/**
 * One merged timeline for any id: operator actions, upstream calls (every attempt), approvals
 * of withdrawal requests, events, balance effects and chain confirmations, ordered by time,
 * each line with the ids it carries. Read-only; built on the same gathering as the search.
 */
export async function supportTimeline(
  services: Services,
  store: EventStore,
  approvals: ApprovalLookup,
  input: { q: string; operator: string },
): Promise<Timeline> {
  const found = await gatherSupport(services, store, input);
  const matched = new Set<SupportMatchKind>(found.matched);
  const requests = new Map<string, WithdrawalRequest>();
  for (const request of await approvals(input.q)) {
    requests.set(request.id, request);
    if (request.id === input.q) matched.add('withdrawalRequestId');
  }
  for (const tx of found.transactions) {
    for (const request of await approvals(tx.id)) requests.set(request.id, request);
  }

  const items: TimelineItem[] = [
    ...found.audit.map((a): TimelineItem => ({
      kind: 'operator-action',
      at: iso(a.at),
      title: `${a.operator ?? 'system'}: ${a.action} ${a.outcome}`,
      operator: a.operator,
      action: a.action,
      outcome: a.outcome,
      detail: a.detail,
      ids: ids({
        correlationId: a.correlationId,
        upstreamRequestId: a.upstreamRequestId,
        operationId: a.operationId,
        idempotencyKey: a.idempotencyKey,
        transactionId: a.action === 'transaction.create' ? a.resourceId : null,
      }),
    })),
    ...found.requests.map((r): TimelineItem => ({
      kind: 'upstream-call',
      at: iso(r.at),
      title: `${r.method} ${r.path} -> ${r.status ?? r.error ?? 'no answer'} (attempt ${r.attempt}, ${r.durationMs} ms)`,
      operator: r.operator,
      operation: r.operation,
      method: r.method,
      path: r.path,
      attempt: r.attempt,
      status: r.status,
      durationMs: r.durationMs,
      error: r.errorCode ?? r.error,
      isFailure: r.status === null || r.status >= 400,
      ids: ids({
        requestId: r.requestIdSent,
        upstreamRequestId: r.upstreamRequestId,
        correlationId: r.correlationId,
        operationId: r.operationId,
        idempotencyKey: r.idempotencyKey,
      }),
    })),
    ...[...requests.values()].flatMap(approvalLines),
    ...found.events.map(eventLine),
    ...found.transactions.flatMap(transactionLines),
  ];
  // Stable: equal instants keep the order above (action, call, approval, event, effect).
  const ordered = items
    .map((item, index) => ({ item, index, at: Date.parse(item.at) }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ item }) => item);
  const kept = ordered.slice(0, MAX_TIMELINE_ITEMS);
  const kinds: TimelineKind[] = [...new Set(kept.map((item) => item.kind))];
  return {
    query: input.q,
    matched: [...matched],
    kinds,
    items: kept,
    isTruncated: ordered.length > kept.length,
  };
}
