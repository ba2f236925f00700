import {
  parseAtomic,
  type Policy,
  type PolicyDecision,
  type Transaction,
  type Wallet,
} from '@settlement/protocol';
import { HttpError } from '../errors';
import type { AddressBookStore } from './address-book-store';
import { evaluate, type UsageItem, type WithdrawalFacts } from './policy-engine';
import type { RequestStore } from './request-store';
import type { UpstreamFacts } from './upstream-facts';

const HOUR_MS = 3_600_000;
/** Statuses of a submitted withdrawal whose funds did not leave: they use no limit. */
const NOT_COUNTED = new Set(['FAILED', 'FAILED_ON_CHAIN']);

export type JudgeInput = {
  walletId: string;
  asset: string;
  toAddress: string;
  amountAtomic: string;
  operator: string | null;
  /** Re-checking a request: it must not count against its own limits. */
  excludeRequestId?: string;
  excludeClientReference?: string | null;
};

export type Judgement = { decision: PolicyDecision; wallet: Wallet; facts: WithdrawalFacts };

/** A withdrawal leaving a wallet: external withdrawals and the debit leg of internal transfers. */
function isOutgoing(tx: Transaction): boolean {
  if (tx.type === 'WITHDRAWAL') return tx.direction !== 'CREDIT';
  if (tx.type === 'INTERNAL_TRANSFER') return tx.direction === 'DEBIT';
  return false;
}

/** Gathers the facts the policy needs (wallet, destination kind, usage) and evaluates it. */
export function createJudge(deps: {
  facts: UpstreamFacts;
  book: AddressBookStore;
  requests: RequestStore;
  policy: () => Promise<Policy>;
  now: () => number;
}) {
  async function usageFor(policy: Policy, asset: string, input: JudgeInput): Promise<UsageItem[]> {
    const windows = policy.limits.filter((l) => l.asset === asset).map((l) => l.windowHours);
    if (windows.length === 0) return [];
    const since = deps.now() - Math.max(...windows) * HOUR_MS;
    const submitted = await deps.facts.transactionsSince(asset, since, input.operator);
    const upstreamReferences = new Set<string>();
    const usage: UsageItem[] = [];
    for (const tx of submitted) {
      if (tx.clientReference) upstreamReferences.add(tx.clientReference);
      if (!isOutgoing(tx) || NOT_COUNTED.has(tx.status)) continue;
      if (input.excludeClientReference && tx.clientReference === input.excludeClientReference)
        continue;
      usage.push({
        walletId: tx.walletId,
        accountId: tx.account.id,
        asset: tx.asset,
        amountAtomic: BigInt(tx.amountAtomic),
        at: Date.parse(tx.createdAt),
      });
    }
    // Requests awaiting approval (or approved, not yet submitted) count too, once: a request
    // whose transaction the upstream already lists is counted through that transaction.
    for (const request of await deps.requests.open()) {
      if (request.asset !== asset || request.id === input.excludeRequestId) continue;
      if (request.clientReference && upstreamReferences.has(request.clientReference)) continue;
      usage.push({
        walletId: request.walletId,
        accountId: request.accountId,
        asset: request.asset,
        amountAtomic: BigInt(request.amountAtomic),
        at: request.createdAtMs,
      });
    }
    return usage;
  }

  return async function judge(input: JudgeInput): Promise<Judgement> {
    const wallet = await deps.facts.wallet(input.walletId, input.operator);
    if (!wallet) throw new HttpError('RESOURCE_NOT_FOUND', `No wallet ${input.walletId}.`);
    const policy = await deps.policy();
    const entry = await deps.book.findLive(wallet.chain, input.toAddress);
    const facts: WithdrawalFacts = {
      walletId: wallet.id,
      accountId: wallet.accountId,
      chain: wallet.chain,
      asset: input.asset,
      amountAtomic: parseAtomic(input.amountAtomic),
      isAddressBook: entry?.status === 'ACTIVE',
      isInternal: await deps.facts.isInternal(wallet.chain, input.toAddress, input.operator),
    };
    const usage = await usageFor(policy, input.asset, input);
    return { decision: evaluate(policy, facts, usage, deps.now()), wallet, facts };
  };
}

export type Judge = ReturnType<typeof createJudge>;
