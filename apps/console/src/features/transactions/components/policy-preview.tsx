import type { DryRunRequest, LimitUsage, PolicyDecision } from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import { formatAmount } from '../../../components/ui/amount';
import { dryRunQuery } from '../api/dry-run';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { decisionSummary } from '../model/policy-decision';

const TONES = {
  allow: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  approval: 'border-amber-300 bg-amber-50 text-amber-950',
  block: 'border-red-300 bg-red-50 text-red-900',
} as const;

/**
 * The withdrawal policy's answer for what is typed, before anything is sent: asked once the
 * fields stop changing, and only when they are all valid (`request` is null otherwise).
 */
export function PolicyPreview({
  request,
  decimals,
}: {
  request: DryRunRequest | null;
  decimals: number;
}) {
  // Debounced by content, not identity: the form rebuilds the object on every render.
  const key = request ? JSON.stringify(request) : '';
  const settledKey = useDebouncedValue(key);
  const settled = settledKey === key ? request : null;
  const dryRun = useQuery(dryRunQuery(settled));
  return (
    <section
      aria-label="Withdrawal policy"
      aria-live="polite"
      className="space-y-1 rounded-md border border-slate-200 p-3 text-sm"
    >
      <h3 className="font-semibold text-slate-900">Withdrawal policy</h3>
      {request === null ? (
        <p className="text-slate-600">
          Once the wallet, asset, address and amount are valid, the policy’s answer appears here.
        </p>
      ) : settled === null || dryRun.isPending ? (
        <p className="text-slate-600">Asking the withdrawal policy…</p>
      ) : dryRun.isError ? (
        <p className="text-slate-700">
          The policy’s answer could not be read ({dryRun.error.message}). The policy still judges
          the withdrawal when it is sent.
        </p>
      ) : (
        <DecisionView decision={dryRun.data} decimals={decimals} />
      )}
    </section>
  );
}

function DecisionView({ decision, decimals }: { decision: PolicyDecision; decimals: number }) {
  const summary = decisionSummary(decision);
  return (
    <div className="space-y-2">
      <div role="status" className={`rounded-md border px-3 py-2 ${TONES[summary.tone]}`}>
        <p className="font-semibold">{summary.headline}</p>
        {summary.reason ? <p className="mt-1">{summary.reason}</p> : null}
        {summary.tone === 'block' ? (
          <p className="mt-1">
            Sending would be refused. If this withdrawal should be possible, ask an admin to change
            the withdrawal policy.
          </p>
        ) : null}
      </div>
      {decision.limits.length > 0 ? (
        <ul aria-label="Limits" className="space-y-1">
          {decision.limits.map((limit) => (
            <LimitLine key={limit.id} limit={limit} decimals={decimals} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function LimitLine({ limit, decimals }: { limit: LimitUsage; decimals: number }) {
  const amount = (atomic: string) => `${formatAmount(atomic, decimals)} ${limit.asset}`;
  return (
    <li className={limit.wouldExceed ? 'font-medium text-red-800' : 'text-slate-700'}>
      {limit.name}: {amount(limit.remainingAtomic)} left of {amount(limit.maxAtomic)} in{' '}
      {limit.windowHours} h ({amount(limit.usedAtomic)} used)
      {limit.wouldExceed ? ' — this withdrawal would exceed it' : ''}
    </li>
  );
}
