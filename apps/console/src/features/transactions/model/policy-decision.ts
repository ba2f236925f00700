import { DryRunRequestSchema } from '@settlement/protocol';
import type { ApprovalRequirement, DryRunRequest, PolicyDecision } from '@settlement/protocol';

/**
 * What the withdrawal policy's answer means for the operator, in words. Pure, so the form, the
 * review and the "sent for approval" panel say it the same way.
 */

/**
 * The dry run's input, only once every field it judges is valid (a dry run of a half-typed
 * address or amount would only produce noise); null until then.
 */
export function dryRunRequestOf(fields: {
  walletId: string;
  asset: string;
  toAddress: string;
  amountAtomic: bigint | null;
  isAddressValid: boolean;
}): DryRunRequest | null {
  const { walletId, asset, toAddress, amountAtomic, isAddressValid } = fields;
  if (!isAddressValid || amountAtomic === null || amountAtomic <= 0n) return null;
  const parsed = DryRunRequestSchema.safeParse({
    walletId,
    asset,
    toAddress,
    amountAtomic: amountAtomic.toString(),
  });
  return parsed.success ? parsed.data : null;
}

/** "1 approval from admin", "2 approvals from treasury or admin". */
export function approvalsText({ count, fromRoles }: ApprovalRequirement): string {
  return `${String(count)} approval${count === 1 ? '' : 's'} from ${fromRoles.join(' or ')}`;
}

export type DecisionSummary = {
  tone: 'allow' | 'approval' | 'block';
  headline: string;
  /** The policy's own last reason (which rule matched, or the limit that blocks). */
  reason: string | null;
};

export function decisionSummary(decision: PolicyDecision): DecisionSummary {
  const reason = decision.reasons.at(-1) ?? null;
  const ruleName = decision.rule ? `rule "${decision.rule.name}"` : null;
  switch (decision.action) {
    case 'ALLOW':
      return {
        tone: 'allow',
        headline: `Will send now${ruleName ? ` (allowed by ${ruleName})` : ''}.`,
        reason,
      };
    case 'REQUIRE_APPROVAL':
      return {
        tone: 'approval',
        headline: decision.approvals
          ? `Needs ${approvalsText(decision.approvals)} before anything is sent${ruleName ? ` (${ruleName})` : ''}.`
          : `Needs approval before anything is sent${ruleName ? ` (${ruleName})` : ''}.`,
        reason,
      };
    case 'BLOCK':
      return { tone: 'block', headline: blockedHeadline(decision), reason };
  }
}

function blockedHeadline(decision: PolicyDecision): string {
  if (decision.blockedByLimit !== null) {
    const limit = decision.limits.find((l) => l.id === decision.blockedByLimit);
    return `Blocked by limit "${limit?.name ?? decision.blockedByLimit}".`;
  }
  if (decision.rule) return `Blocked by rule "${decision.rule.name}".`;
  return 'Blocked: no rule of the policy allows it (default deny).';
}
