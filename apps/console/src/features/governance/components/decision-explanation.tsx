import type { LimitUsage, PolicyAction, PolicyDecision } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import { Badge, type Tone } from '../../../components/ui/badge';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { Table, Td, Th } from '../../../components/ui/table';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

const ACTION_TONES: Record<PolicyAction, Tone> = {
  ALLOW: 'success',
  REQUIRE_APPROVAL: 'warning',
  BLOCK: 'danger',
};

/** One sentence: will send now / needs N approvals from X / blocked by rule or limit Y. */
export function decisionSummary(decision: PolicyDecision): string {
  if (decision.action === 'ALLOW') return `Sends now (rule "${decision.rule?.name ?? '-'}").`;
  if (decision.action === 'REQUIRE_APPROVAL' && decision.approvals) {
    const { count, fromRoles } = decision.approvals;
    return `Needs ${count} approval${count === 1 ? '' : 's'} from ${fromRoles.join(' or ')} (rule "${decision.rule?.name ?? '-'}").`;
  }
  if (decision.blockedByLimit) {
    const limit = decision.limits.find((l) => l.id === decision.blockedByLimit);
    return `Blocked by the limit "${limit?.name ?? decision.blockedByLimit}".`;
  }
  return decision.rule
    ? `Blocked by the rule "${decision.rule.name}".`
    : 'Blocked: no rule matches (default deny).';
}

function LimitName({ limit }: { limit: LimitUsage }) {
  return (
    <>
      {limit.name} <span className="text-xs text-slate-600">({limit.scope})</span>
    </>
  );
}

/** Whether this withdrawal stays within the limit. */
function LimitVerdict({ limit }: { limit: LimitUsage }) {
  return limit.wouldExceed ? (
    <Badge tone="danger">Would exceed</Badge>
  ) : (
    <Badge tone="success">Within</Badge>
  );
}

/**
 * The limits on a phone: the table put what is left and whether this withdrawal would exceed
 * it beyond the right edge. The verdict comes first, since it is what the reader came for.
 */
function LimitCards({
  limits,
  decimals,
}: {
  limits: readonly LimitUsage[];
  decimals: number | null;
}) {
  return (
    <CardList label="Limits">
      {limits.map((limit) => (
        <Card key={limit.id}>
          <p>
            <LimitName limit={limit} />
          </p>
          <CardFields
            fields={[
              ['This withdrawal', <LimitVerdict limit={limit} />],
              ['Window', `${limit.windowHours} h`],
              [
                'Used',
                <Amount atomic={limit.usedAtomic} decimals={decimals} asset={limit.asset} />,
              ],
              [
                'Left',
                <Amount atomic={limit.remainingAtomic} decimals={decimals} asset={limit.asset} />,
              ],
              [
                'Maximum',
                <Amount atomic={limit.maxAtomic} decimals={decimals} asset={limit.asset} />,
              ],
            ]}
          />
        </Card>
      ))}
    </CardList>
  );
}

/** The policy's reasoning: action, the rule that matched, why earlier ones did not, limits. */
export function DecisionExplanation({
  decision,
  decimals,
}: {
  decision: PolicyDecision;
  decimals: number | null;
}) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  return (
    <div className="space-y-3 p-4 text-sm">
      <p className="flex flex-wrap items-center gap-2">
        <Badge tone={ACTION_TONES[decision.action]}>{decision.action.replaceAll('_', ' ')}</Badge>
        <span className="text-slate-900">{decisionSummary(decision)}</span>
        <span className="text-xs text-slate-600">Policy version {decision.policyVersion}</span>
      </p>
      <ol className="list-decimal space-y-1 pl-5 text-slate-800">
        {decision.reasons.map((reason, index) => (
          <li key={index}>{reason}</li>
        ))}
      </ol>
      {decision.limits.length === 0 ? null : isPhone ? (
        <LimitCards limits={decision.limits} decimals={decimals} />
      ) : (
        <Table label="Limits">
          <thead>
            <tr>
              <Th>Limit</Th>
              <Th>Window</Th>
              <Th className="text-right">Used</Th>
              <Th className="text-right">Left</Th>
              <Th className="text-right">Maximum</Th>
              <Th>This withdrawal</Th>
            </tr>
          </thead>
          <tbody>
            {decision.limits.map((limit) => (
              <tr key={limit.id}>
                <Td>
                  <LimitName limit={limit} />
                </Td>
                <Td>{limit.windowHours} h</Td>
                <Td className="text-right">
                  <Amount atomic={limit.usedAtomic} decimals={decimals} asset={limit.asset} />
                </Td>
                <Td className="text-right">
                  <Amount atomic={limit.remainingAtomic} decimals={decimals} asset={limit.asset} />
                </Td>
                <Td className="text-right">
                  <Amount atomic={limit.maxAtomic} decimals={decimals} asset={limit.asset} />
                </Td>
                <Td>
                  <LimitVerdict limit={limit} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
