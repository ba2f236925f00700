import type { Policy, PolicyLimit, PolicyRule } from '@settlement/protocol';
import { Amount, formatAmount } from '../../../components/ui/amount';
import { Badge } from '../../../components/ui/badge';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { Table, Td, Th } from '../../../components/ui/table';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

type DecimalsFor = (asset: string) => number | null;

/**
 * A rule's amount bound as a treasurer reads it: in each of the rule's assets with the
 * catalog's decimals ("1,000 TRX"). A bound of a rule for any asset is atomic units of
 * whichever asset is sent, so it is said so rather than shown in one asset's decimals.
 */
function describeBound(
  atomic: string,
  assets: readonly string[] | undefined,
  decimalsFor: DecimalsFor,
) {
  if (!assets || assets.length === 0) return `${atomic} atomic units of any asset`;
  return assets
    .map((asset) => {
      const decimals = decimalsFor(asset);
      return decimals === null
        ? `${atomic} atomic units of ${asset}`
        : `${formatAmount(atomic, decimals)} ${asset}`;
    })
    .join(' or ');
}

/** The match of a rule in words ("any" for an unconstrained field). */
export function describeMatch(rule: PolicyRule, decimalsFor: DecimalsFor): string {
  const { match } = rule;
  const parts = [
    match.assets ? `asset ${match.assets.join(' or ')}` : null,
    match.chains ? `chain ${match.chains.join(' or ')}` : null,
    match.accountIds ? `account ${match.accountIds.join(' or ')}` : null,
    match.walletIds ? `wallet ${match.walletIds.join(' or ')}` : null,
    match.destination && match.destination !== 'ANY'
      ? match.destination === 'INTERNAL'
        ? 'to a wallet of the organization'
        : 'to an active address-book entry'
      : null,
    match.amountAtomicGte !== undefined
      ? `amount ≥ ${describeBound(match.amountAtomicGte, match.assets, decimalsFor)}`
      : null,
    match.amountAtomicLt !== undefined
      ? `amount < ${describeBound(match.amountAtomicLt, match.assets, decimalsFor)}`
      : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(', ') : 'every withdrawal';
}

/** What a rule does: its action, and for an approval who must give it. */
function RuleAction({ rule }: { rule: PolicyRule }) {
  return (
    <>
      <Badge
        tone={rule.action === 'ALLOW' ? 'success' : rule.action === 'BLOCK' ? 'danger' : 'warning'}
      >
        {rule.action.replaceAll('_', ' ')}
      </Badge>
      {rule.approvals ? (
        <span className="ml-2 text-xs text-slate-700">
          {rule.approvals.count} from {rule.approvals.fromRoles.join(' or ')}
        </span>
      ) : null}
    </>
  );
}

/**
 * The rules as a list, for phone-sized screens: a four-column table would put the action, what
 * a treasurer looks for first, beyond the right edge.
 */
function RuleCards({ policy, decimalsFor }: { policy: Policy; decimalsFor: DecimalsFor }) {
  return (
    <CardList label="Rules, in order" isOrdered>
      {policy.rules.map((rule, index) => (
        <Card key={rule.id}>
          <div className="font-medium">
            {index + 1}. {rule.name}
          </div>
          <div>
            <RuleAction rule={rule} />
          </div>
          <p className="text-slate-700">{describeMatch(rule, decimalsFor)}</p>
          <p className="font-mono text-xs text-slate-600">{rule.id}</p>
        </Card>
      ))}
      <Card>
        <div className="font-medium">{policy.rules.length + 1}. Anything else</div>
        <div>
          <Badge tone="danger">BLOCK</Badge>
        </div>
        <p className="text-slate-700">no rule above matched</p>
      </Card>
    </CardList>
  );
}

/** A limit's maximum in its asset, with the catalog's decimals. */
function LimitMaximum({ limit, decimalsFor }: { limit: PolicyLimit; decimalsFor: DecimalsFor }) {
  return (
    <Amount atomic={limit.maxAtomic} decimals={decimalsFor(limit.asset)} asset={limit.asset} />
  );
}

/** The limits on a phone, where the table put the maximum beyond the right edge. */
function LimitCards({
  limits,
  decimalsFor,
}: {
  limits: readonly PolicyLimit[];
  decimalsFor: DecimalsFor;
}) {
  return (
    <CardList label="Limits">
      {limits.map((limit) => (
        <Card key={limit.id}>
          <p className="font-medium">{limit.name}</p>
          <CardFields
            fields={[
              ['Per', limit.scope.toLowerCase()],
              ['Asset', limit.asset],
              ['Window', `${limit.windowHours} h`],
              ['Maximum', <LimitMaximum limit={limit} decimalsFor={decimalsFor} />],
            ]}
          />
        </Card>
      ))}
    </CardList>
  );
}

export function PolicyRules({ policy, decimalsFor }: { policy: Policy; decimalsFor: DecimalsFor }) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  return (
    <div className="space-y-4">
      {isPhone ? (
        <RuleCards policy={policy} decimalsFor={decimalsFor} />
      ) : (
        <Table label="Rules, in order">
          <thead>
            <tr>
              <Th>#</Th>
              <Th>Rule</Th>
              <Th>Matches</Th>
              <Th>Action</Th>
            </tr>
          </thead>
          <tbody>
            {policy.rules.map((rule, index) => (
              <tr key={rule.id}>
                <Td>{index + 1}</Td>
                <Td>
                  <span className="font-medium">{rule.name}</span>{' '}
                  <span className="font-mono text-xs text-slate-600">{rule.id}</span>
                </Td>
                <Td>{describeMatch(rule, decimalsFor)}</Td>
                <Td>
                  <RuleAction rule={rule} />
                </Td>
              </tr>
            ))}
            <tr>
              <Td>{policy.rules.length + 1}</Td>
              <Td className="font-medium">Anything else</Td>
              <Td>no rule above matched</Td>
              <Td>
                <Badge tone="danger">BLOCK</Badge>
              </Td>
            </tr>
          </tbody>
        </Table>
      )}
      {policy.limits.length > 0 ? (
        isPhone ? (
          <LimitCards limits={policy.limits} decimalsFor={decimalsFor} />
        ) : (
          <Table label="Limits">
            <thead>
              <tr>
                <Th>Limit</Th>
                <Th>Per</Th>
                <Th>Asset</Th>
                <Th>Window</Th>
                <Th className="text-right">Maximum</Th>
              </tr>
            </thead>
            <tbody>
              {policy.limits.map((limit) => (
                <tr key={limit.id}>
                  <Td className="font-medium">{limit.name}</Td>
                  <Td>{limit.scope.toLowerCase()}</Td>
                  <Td>{limit.asset}</Td>
                  <Td>{limit.windowHours} h</Td>
                  <Td className="text-right">
                    <LimitMaximum limit={limit} decimalsFor={decimalsFor} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )
      ) : (
        <p className="px-4 pb-4 text-sm text-slate-600">No limits.</p>
      )}
    </div>
  );
}
