import { FINALITY_CONFIRMATIONS, isTerminalStatus } from '@settlement/protocol';
import type { SupportEvent, Transaction } from '@settlement/protocol';

/** A stored event of the transaction (from the BFF's support search). */
type TimelineEvent = SupportEvent;

/** `skipped`: the transaction ended (failed) without this step ever happening. */
type MilestoneState = 'done' | 'current' | 'pending' | 'failed' | 'skipped';
export type Milestone = {
  key: string;
  label: string;
  state: MilestoneState;
  at: string | null;
  detail: string | null;
};

// Stage names the sandbox reports in event data (`stage`); other deployments may not send them,
// in which case txHash and confirmations still place the transaction.
const TERMINAL_LABELS: Record<string, string> = {
  CONFIRMED: 'Confirmed',
  FAILED: 'Failed',
  FAILED_ON_CHAIN: 'Failed on chain',
};

// DONE is left out on purpose: it says processing ended, not how far it got (a withdrawal that
// failed before broadcast ends in DONE too), so it must not mark signing or broadcast done.
const STAGE_ORDER = ['RESERVED', 'SIGNING', 'SIGNED', 'BROADCAST'] as const;

function stageIndex(event: TimelineEvent): number {
  const stage = event.data.stage;
  return typeof stage === 'string' ? STAGE_ORDER.findIndex((known) => known === stage) : -1;
}

function numberField(data: Record<string, unknown>, key: string): number | null {
  const value = data[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function firstAt(
  events: TimelineEvent[],
  predicate: (event: TimelineEvent) => boolean,
): string | null {
  return events.find(predicate)?.occurredAt ?? null;
}

function confirmationsOf(transaction: Transaction, events: TimelineEvent[]) {
  let seen = transaction.onChainDetails?.confirmations ?? 0;
  let required = transaction.onChainDetails?.requiredConfirmations ?? FINALITY_CONFIRMATIONS;
  let at: string | null = null;
  for (const event of events) {
    const n = numberField(event.data, 'confirmations');
    if (n !== null && n >= seen) {
      seen = n;
      at = event.occurredAt;
    }
    required = numberField(event.data, 'requiredConfirmations') ?? required;
  }
  if (transaction.status === 'CONFIRMED') seen = Math.max(seen, required);
  return { seen, required, at };
}

/**
 * The status timeline from stored events: created, reservation, signing, broadcast,
 * confirmations n/19 and the terminal state (deposits: observed, confirmations, credited).
 */
export function buildTimeline(transaction: Transaction, events: TimelineEvent[]): Milestone[] {
  const sorted = [...events].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
  const status = transaction.status;
  const isTerminal = isTerminalStatus(status);
  const isFailed = status === 'FAILED' || status === 'FAILED_ON_CHAIN';
  // Only a transaction the chain included can be CONFIRMED or FAILED_ON_CHAIN: every step
  // before inclusion happened even when its events are missing (another deployment).
  const wentOnChain = status === 'CONFIRMED' || status === 'FAILED_ON_CHAIN';
  const confirmations = confirmationsOf(transaction, sorted);
  const txHash =
    transaction.onChainDetails?.txHash ??
    sorted.map((e) => e.data.txHash).find((h): h is string => typeof h === 'string' && h !== '') ??
    null;
  const reached = Math.max(-1, ...sorted.map(stageIndex));
  const terminalEvent = sorted.find(
    (e) =>
      e.type === 'transaction.confirmed' ||
      e.type === 'transaction.failed' ||
      e.type === 'transaction.failed_on_chain',
  );
  const terminal: Milestone = {
    key: 'terminal',
    label: isTerminal ? (TERMINAL_LABELS[status] ?? status) : 'Final state',
    state: isFailed ? 'failed' : isTerminal ? 'done' : 'pending',
    at: terminalEvent?.occurredAt ?? (isTerminal ? transaction.updatedAt : null),
    detail: isFailed
      ? [transaction.failureCode, transaction.failureMessage].filter(Boolean).join(': ') || null
      : null,
  };
  const confirmationStep: Milestone = {
    key: 'confirmations',
    label: `Confirmations ${Math.min(confirmations.seen, confirmations.required)}/${confirmations.required}`,
    state:
      confirmations.seen >= confirmations.required || status === 'CONFIRMED'
        ? 'done'
        : confirmations.seen > 0 && !isTerminal
          ? 'current'
          : 'pending',
    at: confirmations.at,
    detail: null,
  };

  if (transaction.type === 'DEPOSIT') {
    const credited = sorted.find((e) => e.type === 'deposit.credited');
    return finish(
      [
        {
          key: 'observed',
          label: 'Observed on chain',
          state: 'done',
          at: firstAt(sorted, (e) => e.type === 'deposit.observed') ?? transaction.createdAt,
          detail: txHash,
        },
        confirmationStep,
        terminal,
        {
          key: 'credited',
          label: 'Credited to the ledger',
          state: credited ? 'done' : 'pending',
          at: credited?.occurredAt ?? null,
          detail: null,
        },
      ],
      status,
    );
  }

  const hasReserve = (transaction.balanceEffects ?? []).some((e) => e.kind === 'RESERVE');
  const isBroadcast = Boolean(txHash) || reached >= 3 || wentOnChain;
  return finish(
    [
      {
        key: 'created',
        label: 'Created',
        state: 'done',
        at: firstAt(sorted, (e) => e.type === 'transaction.created') ?? transaction.createdAt,
        detail: null,
      },
      {
        key: 'reserved',
        label: 'Funds reserved',
        state: reached >= 0 || hasReserve || wentOnChain ? 'done' : 'pending',
        at: firstAt(sorted, (e) => stageIndex(e) >= 0),
        detail: null,
      },
      {
        key: 'signing',
        label: 'Signed by MPC',
        state: reached >= 2 || isBroadcast ? 'done' : reached === 1 ? 'current' : 'pending',
        at: firstAt(sorted, (e) => stageIndex(e) >= 2),
        detail: null,
      },
      {
        key: 'broadcast',
        label: 'Broadcast',
        state: isBroadcast ? 'done' : 'pending',
        at: firstAt(sorted, (e) => typeof e.data.txHash === 'string' && e.data.txHash !== ''),
        detail: txHash,
      },
      confirmationStep,
      terminal,
    ],
    status,
  );
}

/**
 * The first unfinished step of a live transaction is "current". Once it failed, a step still
 * unfinished never happened ("skipped"), so nothing pulses or waits on a finished transaction.
 */
function finish(milestones: Milestone[], status: Transaction['status']): Milestone[] {
  if (status === 'FAILED' || status === 'FAILED_ON_CHAIN') {
    return milestones.map((m) =>
      // A step that never happened has no time either (events carry `confirmations: 0`).
      m.state === 'pending' || m.state === 'current' ? { ...m, state: 'skipped', at: null } : m,
    );
  }
  if (isTerminalStatus(status) || milestones.some((m) => m.state === 'current')) return milestones;
  const index = milestones.findIndex((m) => m.state === 'pending');
  return milestones.map((m, i) => (i === index ? { ...m, state: 'current' } : m));
}
