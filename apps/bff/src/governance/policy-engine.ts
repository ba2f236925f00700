import {
  PolicyDocumentSchema,
  type ApprovalRequirement,
  type LimitUsage,
  type PolicyDecision,
  type PolicyDocument,
  type PolicyLimit,
  type PolicyMatch,
  type PolicyRule,
} from '@settlement/protocol';

/**
 * The withdrawal policy, pure: ordered rules (first match wins, no match = BLOCK), limits over
 * rolling windows, validation of a document before it is stored, and the dry-run explanation.
 * No I/O: the caller gathers the facts (wallet, destination kind, recent usage) and the clock.
 */

/** What the policy judges about one withdrawal. Amounts are bigint, never Number. */
export type WithdrawalFacts = {
  walletId: string;
  accountId: string;
  chain: string;
  asset: string;
  amountAtomic: bigint;
  /** An ACTIVE address-book entry holds (chain, toAddress). */
  isAddressBook: boolean;
  /** toAddress is a wallet of the organization on the same chain. */
  isInternal: boolean;
};

/** One withdrawal that counts against limits: submitted and not failed, or awaiting approval. */
export type UsageItem = {
  walletId: string;
  accountId: string;
  asset: string;
  amountAtomic: bigint;
  /** Epoch ms when it was requested or submitted. */
  at: number;
};

const HOUR_MS = 3_600_000;

function list(values: readonly string[]): string {
  return values.join(', ');
}

/** Why the rule does not match, or null when it matches. */
function mismatchOf(match: PolicyMatch, facts: WithdrawalFacts): string | null {
  if (match.assets && !match.assets.includes(facts.asset))
    return `asset ${facts.asset} is not one of ${list(match.assets)}`;
  if (match.chains && !match.chains.some((chain) => chain === facts.chain))
    return `chain ${facts.chain} is not one of ${list(match.chains)}`;
  if (match.accountIds && !match.accountIds.includes(facts.accountId))
    return `account ${facts.accountId} is not one of ${list(match.accountIds)}`;
  if (match.walletIds && !match.walletIds.includes(facts.walletId))
    return `wallet ${facts.walletId} is not one of ${list(match.walletIds)}`;
  if (match.destination === 'ADDRESS_BOOK' && !facts.isAddressBook)
    return 'the destination is not an active address-book entry';
  if (match.destination === 'INTERNAL' && !facts.isInternal)
    return 'the destination is not a wallet of the organization on this chain';
  if (match.amountAtomicGte !== undefined && facts.amountAtomic < BigInt(match.amountAtomicGte))
    return `amount ${facts.amountAtomic} is below ${match.amountAtomicGte}`;
  if (match.amountAtomicLt !== undefined && facts.amountAtomic >= BigInt(match.amountAtomicLt))
    return `amount ${facts.amountAtomic} is not below ${match.amountAtomicLt}`;
  return null;
}

function appliesTo(limit: PolicyLimit, facts: WithdrawalFacts, item: UsageItem): boolean {
  if (item.asset !== limit.asset) return false;
  if (limit.scope === 'WALLET') return item.walletId === facts.walletId;
  if (limit.scope === 'ACCOUNT') return item.accountId === facts.accountId;
  return true;
}

/** Every limit on this asset: what the window has used, what is left, whether this exceeds it. */
function limitUsage(
  limits: readonly PolicyLimit[],
  facts: WithdrawalFacts,
  usage: readonly UsageItem[],
  now: number,
): LimitUsage[] {
  return limits
    .filter((limit) => limit.asset === facts.asset)
    .map((limit) => {
      const since = now - limit.windowHours * HOUR_MS;
      let used = 0n;
      for (const item of usage) {
        if (item.at > since && item.at <= now && appliesTo(limit, facts, item))
          used += item.amountAtomic;
      }
      const max = BigInt(limit.maxAtomic);
      const remaining = max > used ? max - used : 0n;
      return {
        id: limit.id,
        name: limit.name,
        scope: limit.scope,
        asset: limit.asset,
        windowHours: limit.windowHours,
        usedAtomic: used.toString(),
        maxAtomic: limit.maxAtomic,
        remainingAtomic: remaining.toString(),
        wouldExceed: used + facts.amountAtomic > max,
      };
    });
}

export type EvaluablePolicy = Pick<PolicyDocument, 'rules' | 'limits'> & { version: number };

/** The policy's answer for one withdrawal, with the reasoning a person can read. */
export function evaluate(
  policy: EvaluablePolicy,
  facts: WithdrawalFacts,
  usage: readonly UsageItem[],
  now: number,
): PolicyDecision {
  const reasons: string[] = [];
  let matched: PolicyRule | null = null;
  for (const rule of policy.rules) {
    const why = mismatchOf(rule.match, facts);
    if (why === null) {
      matched = rule;
      reasons.push(`Rule "${rule.name}" matches: ${rule.action}.`);
      break;
    }
    reasons.push(`Rule "${rule.name}" does not match: ${why}.`);
  }
  if (!matched) reasons.push('No rule matches: blocked by default.');
  const limits = limitUsage(policy.limits, facts, usage, now);
  let action = matched?.action ?? 'BLOCK';
  let blockedByLimit: string | null = null;
  if (action !== 'BLOCK') {
    const exceeded = limits.find((limit) => limit.wouldExceed);
    if (exceeded) {
      action = 'BLOCK';
      blockedByLimit = exceeded.id;
      reasons.push(
        `Limit "${exceeded.name}" would be exceeded: ${exceeded.usedAtomic} used of ` +
          `${exceeded.maxAtomic} in ${exceeded.windowHours} h, this withdrawal adds ` +
          `${facts.amountAtomic}.`,
      );
    }
  }
  const approvals: ApprovalRequirement | null =
    action === 'REQUIRE_APPROVAL' ? (matched?.approvals ?? null) : null;
  return {
    action,
    rule: matched ? { id: matched.id, name: matched.name } : null,
    reasons,
    approvals,
    limits,
    blockedByLimit,
    destination: { isAddressBook: facts.isAddressBook, isInternal: facts.isInternal },
    policyVersion: policy.version,
  };
}

export type PolicyProblem = { ruleId: string | null; limitId: string | null; message: string };

function subsetOf(inner: readonly string[] | undefined, outer: readonly string[] | undefined) {
  if (outer === undefined) return true;
  if (inner === undefined) return false;
  return inner.every((value) => outer.includes(value));
}

/** Whether every withdrawal `later` matches is already matched by `earlier`. */
function covers(earlier: PolicyMatch, later: PolicyMatch): boolean {
  const destinationCovered =
    earlier.destination === undefined ||
    earlier.destination === 'ANY' ||
    earlier.destination === later.destination;
  const earlierLow = BigInt(earlier.amountAtomicGte ?? '0');
  const laterLow = BigInt(later.amountAtomicGte ?? '0');
  const lowCovered = earlierLow <= laterLow;
  const highCovered =
    earlier.amountAtomicLt === undefined ||
    (later.amountAtomicLt !== undefined &&
      BigInt(later.amountAtomicLt) <= BigInt(earlier.amountAtomicLt));
  return (
    subsetOf(later.assets, earlier.assets) &&
    subsetOf(later.chains, earlier.chains) &&
    subsetOf(later.accountIds, earlier.accountIds) &&
    subsetOf(later.walletIds, earlier.walletIds) &&
    destinationCovered &&
    lowCovered &&
    highCovered
  );
}

/** The account and wallet ids a document names, so the caller can check they exist. */
export function referencesOf(doc: PolicyDocument): { accountIds: string[]; walletIds: string[] } {
  const accountIds = new Set<string>();
  const walletIds = new Set<string>();
  for (const rule of doc.rules) {
    for (const id of rule.match.accountIds ?? []) accountIds.add(id);
    for (const id of rule.match.walletIds ?? []) walletIds.add(id);
  }
  return { accountIds: [...accountIds], walletIds: [...walletIds] };
}

export type PolicyCatalog = {
  assets: ReadonlySet<string>;
  accountIds: ReadonlySet<string>;
  walletIds: ReadonlySet<string>;
};

/** Problems of a well-formed document: unknown references, empty ranges, unreachable rules. */
export function validatePolicy(doc: PolicyDocument, catalog: PolicyCatalog): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  const ruleProblem = (rule: PolicyRule, message: string) => {
    problems.push({ ruleId: rule.id, limitId: null, message: `Rule "${rule.name}": ${message}` });
  };
  const seenRules = new Set<string>();
  doc.rules.forEach((rule, index) => {
    if (seenRules.has(rule.id)) ruleProblem(rule, `the id ${rule.id} is used twice`);
    seenRules.add(rule.id);
    for (const asset of rule.match.assets ?? [])
      if (!catalog.assets.has(asset)) ruleProblem(rule, `unknown asset ${asset}`);
    for (const id of rule.match.accountIds ?? [])
      if (!catalog.accountIds.has(id)) ruleProblem(rule, `unknown account ${id}`);
    for (const id of rule.match.walletIds ?? [])
      if (!catalog.walletIds.has(id)) ruleProblem(rule, `unknown wallet ${id}`);
    const { amountAtomicGte: low, amountAtomicLt: high } = rule.match;
    if (low !== undefined && high !== undefined && BigInt(low) >= BigInt(high))
      ruleProblem(rule, `no amount is at least ${low} and below ${high}`);
    if (rule.action !== 'REQUIRE_APPROVAL' && rule.approvals !== undefined)
      ruleProblem(rule, 'approvals are only for REQUIRE_APPROVAL');
    const shadow = doc.rules.slice(0, index).find((earlier) => covers(earlier.match, rule.match));
    if (shadow)
      ruleProblem(rule, `unreachable: the earlier rule "${shadow.name}" matches all it matches`);
  });
  const seenLimits = new Set<string>();
  for (const limit of doc.limits) {
    const problem = (message: string) => {
      problems.push({
        ruleId: null,
        limitId: limit.id,
        message: `Limit "${limit.name}": ${message}`,
      });
    };
    if (seenLimits.has(limit.id)) problem(`the id ${limit.id} is used twice`);
    seenLimits.add(limit.id);
    if (!catalog.assets.has(limit.asset)) problem(`unknown asset ${limit.asset}`);
  }
  return problems;
}

/**
 * Parses a document sent to `PUT /bff/policy`; schema problems name the rule or limit (by id
 * when it has one, else by position) and the field.
 */
export function parsePolicyDocument(
  body: unknown,
): { ok: true; doc: PolicyDocument } | { ok: false; problems: PolicyProblem[] } {
  const parsed = PolicyDocumentSchema.safeParse(body);
  if (parsed.success) return { ok: true, doc: parsed.data };
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const problems = parsed.error.issues.map((issue): PolicyProblem => {
    const [section, index, ...rest] = issue.path;
    const field = rest.map(String).join('.');
    if ((section === 'rules' || section === 'limits') && typeof index === 'number') {
      const items = record[section];
      const item: unknown = Array.isArray(items) ? items[index] : undefined;
      const id =
        typeof item === 'object' &&
        item !== null &&
        typeof (item as { id?: unknown }).id === 'string'
          ? (item as { id: string }).id
          : null;
      const label = `${section === 'rules' ? 'Rule' : 'Limit'} ${id ?? `#${index + 1}`}`;
      return {
        ruleId: section === 'rules' ? id : null,
        limitId: section === 'limits' ? id : null,
        message: `${label}${field ? ` ${field}` : ''}: ${issue.message}`,
      };
    }
    const where = issue.path.map(String).join('.');
    return { ruleId: null, limitId: null, message: `${where || 'policy'}: ${issue.message}` };
  });
  return { ok: false, problems };
}
