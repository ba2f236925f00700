import { readFileSync } from 'node:fs';
import {
  EventHistoryPageSchema,
  OperationViewSchema,
  TransactionSchema,
  WithdrawalRequestListSchema,
  WithdrawalRequestSchema,
  listEnvelope,
  type Transaction,
  type WithdrawalRequest,
} from '@settlement/protocol';
import { z } from 'zod';
import { isAnswer, type Operator } from './bff-client';
import type { BrowserSocket } from './browser-sockets';
import type { CampaignLog, WithdrawalOp } from './workload';

/**
 * The end-of-campaign checks, over what the BFF and the sandbox say once the faults are gone and
 * every open operation was retried to a definite answer. Each returns the violations it found,
 * as sentences a person can act on; none is fatal on its own, so one run reports them all.
 */

const BalancesSchema = z.object({
  items: z.array(
    z.looseObject({
      asset: z.string(),
      postedBalance: z.string(),
      availableBalance: z.string(),
      reservedBalance: z.string(),
    }),
  ),
});
const WalletIdsSchema = listEnvelope(z.looseObject({ id: z.string() }));
const TransactionPageSchema = listEnvelope(TransactionSchema);

export type Snapshot = {
  transactions: Transaction[];
  balances: Map<string, z.infer<typeof BalancesSchema>['items']>;
  requests: WithdrawalRequest[];
  /** Journal views by operation id (absent: the BFF has no journal row, e.g. awaiting approval). */
  operations: Map<string, z.infer<typeof OperationViewSchema>>;
  /** Every stored event id, oldest first. */
  events: string[];
};

async function getJson(reader: Operator, path: string): Promise<unknown> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const reply = await reader.call('GET', path);
    if (isAnswer(reply) && reply.status === 200) return reply.json;
    if (isAnswer(reply) && reply.status === 404) return null;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`GET ${path} never answered 200`);
}

async function listAll<T>(
  reader: Operator,
  path: string,
  schema: z.core.$ZodType<{ items: T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = z.parse(schema, await getJson(reader, `${path}?limit=200${query}`));
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

export async function takeSnapshot(
  reader: Operator,
  treasury: Operator,
  log: CampaignLog,
): Promise<Snapshot> {
  const transactions = await listAll(reader, '/bff/api/v1/transactions', TransactionPageSchema);
  const wallets = await listAll(reader, '/bff/api/v1/wallets', WalletIdsSchema);
  const balances: Snapshot['balances'] = new Map();
  for (const wallet of wallets) {
    const body = BalancesSchema.parse(
      await getJson(reader, `/bff/api/v1/wallets/${encodeURIComponent(wallet.id)}/balances`),
    );
    balances.set(wallet.id, body.items);
  }
  const requests = WithdrawalRequestListSchema.parse(
    await getJson(reader, '/bff/withdrawal-requests'),
  ).items;
  // The list holds only the newest 200 requests (no pages): a longer run reads the rest of the
  // ones it created one by one.
  const listed = new Set(requests.map((request) => request.id));
  for (const op of log.withdrawals) {
    const id = op.withdrawalRequestId;
    if (id === null || listed.has(id)) continue;
    const body = await getJson(reader, `/bff/withdrawal-requests/${encodeURIComponent(id)}`);
    if (body !== null) requests.push(WithdrawalRequestSchema.parse(body));
    listed.add(id);
  }
  const operations: Snapshot['operations'] = new Map();
  const ids = [
    ...log.withdrawals.map((w) => w.operationId),
    ...log.walletOps.map((w) => w.operationId),
  ];
  for (const id of ids) {
    const view = await getJson(treasury, `/bff/operations/${encodeURIComponent(id)}`);
    if (view !== null) operations.set(id, OperationViewSchema.parse(view));
  }
  const newestFirst: string[] = [];
  let before: number | null = null;
  do {
    const query: string = before === null ? '' : `&before=${before}`;
    const page = EventHistoryPageSchema.parse(
      await getJson(reader, `/bff/events/history?limit=200${query}`),
    );
    newestFirst.push(...page.items.map((event) => event.id));
    before = page.nextBefore;
  } while (before !== null);
  return { transactions, balances, requests, operations, events: newestFirst.reverse() };
}

/** The leg that spent money: an external withdrawal, or the debit leg of an internal transfer. */
function isSourceLeg(tx: Transaction): boolean {
  return tx.type !== 'DEPOSIT' && tx.direction !== 'CREDIT';
}

/**
 * Every withdrawal the BFF accepted has exactly one upstream transaction, or a recorded,
 * explained refusal; no withdrawal was sent twice; no journal entry is left open.
 */
export function checkWithdrawals(log: CampaignLog, snap: Snapshot): string[] {
  const problems: string[] = [];
  const byId = new Map(snap.transactions.map((tx) => [tx.id, tx]));
  const sourceByRef = new Map<string, Transaction[]>();
  for (const tx of snap.transactions) {
    if (!isSourceLeg(tx)) continue;
    const ref = tx.clientReference ?? '(none)';
    sourceByRef.set(ref, [...(sourceByRef.get(ref) ?? []), tx]);
  }
  const requestById = new Map(snap.requests.map((r) => [r.id, r]));
  const accounted = new Set<string>();
  const describe = (op: WithdrawalOp) =>
    `withdrawal ${op.operationId} (${op.destination}, ${op.body.amountAtomic} TRX atomic)`;

  for (const op of log.withdrawals) {
    const view = snap.operations.get(op.operationId);
    if (view && (view.state === 'unknown' || view.state === 'pending')) {
      problems.push(`${describe(op)}: the journal still says "${view.state}" after reconciliation`);
    }
    const ref = view?.clientReference ?? null;
    const sent = ref ? (sourceByRef.get(ref) ?? []) : [];
    if (sent.length > 1) {
      problems.push(`${describe(op)}: sent ${sent.length} times (clientReference ${ref ?? ''})`);
    }
    for (const tx of sent) accounted.add(tx.id);
    switch (op.outcome) {
      case 'unresolved':
        problems.push(
          `${describe(op)}: never got a definite answer (last: ${op.refusal?.message ?? 'none'})`,
        );
        break;
      case 'created':
        if (!op.transactionId || !byId.has(op.transactionId)) {
          problems.push(
            `${describe(op)}: 201 with transaction ${op.transactionId ?? '?'} the upstream does not have`,
          );
        } else if (sent.length !== 1 || sent[0]?.id !== op.transactionId) {
          problems.push(
            `${describe(op)}: its transaction is not the one upstream transaction of its clientReference`,
          );
        }
        break;
      case 'refused':
        if (!op.refusal?.code || !op.refusal.message) {
          problems.push(
            `${describe(op)}: refused without an explanation (${op.refusal?.status ?? 0})`,
          );
        }
        if (op.refusal?.code === 'IDEMPOTENCY_CONFLICT') {
          problems.push(
            `${describe(op)}: the same request resent with its own id was called a conflict`,
          );
        }
        if (sent.length > 0) problems.push(`${describe(op)}: refused, yet sent upstream`);
        break;
      case 'request': {
        const request = op.withdrawalRequestId
          ? requestById.get(op.withdrawalRequestId)
          : undefined;
        if (!request) {
          problems.push(
            `${describe(op)}: its withdrawal request ${op.withdrawalRequestId ?? '?'} is gone`,
          );
          break;
        }
        if (request.status === 'SUBMITTED') {
          if (!request.transactionId || !byId.has(request.transactionId)) {
            problems.push(`${describe(op)}: request SUBMITTED without an upstream transaction`);
          } else {
            accounted.add(request.transactionId);
          }
        } else if (request.status === 'AWAITING_APPROVAL' || request.status === 'APPROVED') {
          problems.push(`${describe(op)}: request still ${request.status} at the end`);
        } else if (request.status === 'FAILED' && !request.failure) {
          problems.push(`${describe(op)}: request FAILED without a recorded failure`);
        } else if (request.status !== 'FAILED' && sent.length > 0) {
          problems.push(`${describe(op)}: request ${request.status}, yet sent upstream`);
        }
        break;
      }
    }
  }
  for (const txs of sourceByRef.values()) {
    for (const tx of txs) {
      if (!accounted.has(tx.id)) {
        problems.push(
          `upstream transaction ${tx.id} (${tx.amountAtomic}) matches no operation of the campaign`,
        );
      }
    }
  }
  for (const wallet of log.walletOps) {
    const view = snap.operations.get(wallet.operationId);
    if (wallet.outcome === 'unresolved') {
      problems.push(`wallet creation ${wallet.operationId}: never got a definite answer`);
    }
    if (view && (view.state === 'unknown' || view.state === 'pending')) {
      problems.push(
        `wallet creation ${wallet.operationId}: the journal still says "${view.state}"`,
      );
    }
  }
  return problems;
}

/** Deposits: each accepted one credited exactly once; none from nowhere. */
export function checkDeposits(log: CampaignLog, snap: Snapshot): string[] {
  const problems: string[] = [];
  const byFrom = new Map<string, Transaction[]>();
  for (const tx of snap.transactions) {
    if (tx.type !== 'DEPOSIT') continue;
    const from = tx.fromAddress ?? '(none)';
    byFrom.set(from, [...(byFrom.get(from) ?? []), tx]);
  }
  const ours = new Set(log.deposits.map((d) => d.fromAddress));
  for (const deposit of log.deposits) {
    const found = byFrom.get(deposit.fromAddress) ?? [];
    if (found.length > 1)
      problems.push(`deposit from ${deposit.fromAddress} credited ${found.length} times`);
    if (deposit.outcome === 'accepted' && found.length === 0) {
      problems.push(`deposit from ${deposit.fromAddress} was accepted (202) but never appeared`);
    }
    if (deposit.outcome === 'refused' && found.length > 0) {
      problems.push(`deposit from ${deposit.fromAddress} was refused but appeared`);
    }
    for (const tx of found) {
      if (tx.amountAtomic !== deposit.amountAtomic || tx.walletId !== deposit.walletId) {
        problems.push(`deposit from ${deposit.fromAddress} appeared with other amount or wallet`);
      }
    }
  }
  for (const from of byFrom.keys()) {
    if (!ours.has(from)) problems.push(`a deposit from ${from} nobody made`);
  }
  return problems;
}

/**
 * The ledger balances: posted = available + reserved per wallet and asset; nothing reserved once
 * every transaction is terminal; each wallet's posted balance is the sum of its transactions'
 * balance effects; and over all wallets, deposits minus withdrawals minus fees.
 */
export function checkLedger(snap: Snapshot): string[] {
  const problems: string[] = [];
  const pending = snap.transactions.filter((tx) => tx.status === 'PENDING');
  if (pending.length > 0) problems.push(`${pending.length} transactions still PENDING at the end`);
  const posted = new Map<string, bigint>();
  for (const [walletId, items] of snap.balances) {
    for (const b of items) {
      const p = BigInt(b.postedBalance);
      const a = BigInt(b.availableBalance);
      const r = BigInt(b.reservedBalance);
      if (p !== a + r)
        problems.push(
          `wallet ${walletId} ${b.asset}: posted ${p} != available ${a} + reserved ${r}`,
        );
      if (pending.length === 0 && r !== 0n)
        problems.push(`wallet ${walletId} ${b.asset}: ${r} reserved with nothing pending`);
      if (a < 0n || r < 0n) problems.push(`wallet ${walletId} ${b.asset}: a negative balance`);
      posted.set(`${walletId}/${b.asset}`, p);
    }
  }
  const effects = new Map<string, bigint>();
  const flows = new Map<string, bigint>();
  const addFlow = (asset: string, amount: bigint) =>
    flows.set(asset, (flows.get(asset) ?? 0n) + amount);
  for (const tx of snap.transactions) {
    for (const effect of tx.balanceEffects ?? []) {
      const key = `${effect.walletId}/${effect.asset}`;
      effects.set(key, (effects.get(key) ?? 0n) + BigInt(effect.postedDeltaAtomic));
    }
    if (tx.status === 'CONFIRMED' && tx.type === 'DEPOSIT')
      addFlow(tx.asset, BigInt(tx.amountAtomic));
    if (tx.status === 'CONFIRMED' && tx.transferKind === 'EXTERNAL_WITHDRAWAL') {
      addFlow(tx.asset, -BigInt(tx.amountAtomic));
    }
    const fee = tx.networkFeeSummary?.actualFeeAtomic;
    if (tx.networkFeeSummary && fee && tx.status !== 'PENDING') {
      addFlow(tx.networkFeeSummary.asset, -BigInt(fee));
    }
  }
  for (const [key, amount] of posted) {
    const fromEffects = effects.get(key) ?? 0n;
    if (fromEffects !== amount)
      problems.push(
        `wallet ${key}: posted ${amount}, its transactions' effects sum to ${fromEffects}`,
      );
  }
  const totals = new Map<string, bigint>();
  for (const [key, amount] of posted) {
    const asset = key.slice(key.indexOf('/') + 1);
    totals.set(asset, (totals.get(asset) ?? 0n) + amount);
  }
  for (const asset of new Set([...totals.keys(), ...flows.keys()])) {
    const held = totals.get(asset) ?? 0n;
    const expected = flows.get(asset) ?? 0n;
    if (held !== expected) {
      problems.push(`${asset}: wallets hold ${held}, deposits - withdrawals - fees = ${expected}`);
    }
  }
  return problems;
}

/** Each browser tab saw every stored event after its start, once and in order (after dedupe). */
export function checkSockets(sockets: readonly BrowserSocket[], snap: Snapshot): string[] {
  const problems: string[] = [];
  if (new Set(snap.events).size !== snap.events.length)
    problems.push('the BFF stored an event id twice');
  for (const socket of sockets) {
    problems.push(...socket.problems);
    const from = snap.events.indexOf(socket.startAfter);
    if (from === -1) {
      problems.push(`${socket.name}: its start ${socket.startAfter} is not in the event store`);
      continue;
    }
    const expected = snap.events.slice(from + 1);
    const seen = socket.seen;
    const missing = expected.filter((id) => !seen.includes(id));
    if (missing.length > 0)
      problems.push(
        `${socket.name}: missed ${missing.length} of ${expected.length} events (first ${missing[0] ?? ''})`,
      );
    const extra = seen.filter((id) => !expected.includes(id));
    if (extra.length > 0)
      problems.push(
        `${socket.name}: saw ${extra.length} events the store does not hold after its start`,
      );
    if (missing.length === 0 && extra.length === 0 && seen.join('\n') !== expected.join('\n')) {
      problems.push(`${socket.name}: saw every event, but out of order`);
    }
    if (socket.resyncs > 0)
      problems.push(
        `${socket.name}: told to resync ${socket.resyncs} times (a resume point was lost)`,
      );
    if (socket.sessionEnds > 0)
      problems.push(`${socket.name}: its session was ended ${socket.sessionEnds} times`);
  }
  return problems;
}

/** Every event the upstream holds reached the BFF's store (the relay lost none, e.g. on a full disk). */
export function checkUpstreamEvents(upstream: readonly string[], snap: Snapshot): string[] {
  const stored = new Set(snap.events);
  const missing = upstream.filter((id) => !stored.has(id));
  if (upstream.length === 0) return ['the upstream event stream returned no events to compare'];
  return missing.length === 0
    ? []
    : [
        `the BFF never stored ${missing.length} of ${upstream.length} upstream events (first ${missing[0] ?? ''})`,
      ];
}

/** Base64 of a 64-byte Ed25519 signature, as the X-Api-Signature header carries it. */
const SIGNATURE = /[A-Za-z0-9+/]{86}==/;

/** No password, key seed, admin token, session cookie, CSRF token or signature in any log. */
export function checkLogs(files: readonly string[], secrets: readonly string[]): string[] {
  const problems: string[] = [];
  const needles = secrets.filter((s) => s.length >= 12);
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const [index, line] of text.split('\n').entries()) {
      if (needles.some((secret) => line.includes(secret))) {
        problems.push(`${file}:${index + 1}: a secret in the log`);
      }
      if (SIGNATURE.test(line)) problems.push(`${file}:${index + 1}: a signature in the log`);
    }
  }
  return problems;
}
