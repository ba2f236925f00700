import type { WithdrawalRequest } from '@settlement/protocol';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Amount } from '../../../components/ui/amount';
import { Panel } from '../../../components/ui/panel';
import { Skeleton } from '../../../components/ui/skeleton';
import type { Commitment } from '../model/open-requests';

/** What the page read for the check, as plain values (the wallet is another feature's). */
export type Funds = {
  /** The wallet's available balance of the request's asset; null until read. */
  availableAtomic: bigint | null;
  /** The wallet's other open requests of that asset; null until both lists are read. */
  committed: Commitment | null;
  /** A list was full: `committed` is a lower bound. */
  isAtLeast: boolean;
  /** The balance could not be read. */
  isError: boolean;
  /** A list of open requests could not be read (it is retried). */
  isOthersError: boolean;
  /**
   * The network fee the request pays from the same balance: a native transfer's flat fee, which
   * each other open request of that asset pays too; 0 for a token, whose fee is paid in TRX.
   * Null until known (the catalog says which the asset is): nothing is judged before.
   */
  feeAtomic: bigint | null;
};

type Verdict =
  | { kind: 'unreadable' }
  | { kind: 'checking' }
  | { kind: 'short-alone'; shortAtomic: bigint }
  | { kind: 'others-unread' }
  | { kind: 'others-unreadable' }
  | { kind: 'short'; shortAtomic: bigint }
  | { kind: 'covered'; leftAtomic: bigint };

/**
 * Only a request not yet sent can still fail for want of funds: once sent, the upstream has
 * reserved its amount, and a terminal one is never sent.
 */
export function needsFundsCheck(request: WithdrawalRequest): boolean {
  return request.status === 'AWAITING_APPROVAL' || request.status === 'APPROVED';
}

function verdictOf(amountAtomic: bigint, funds: Funds): Verdict {
  // A balance that failed to refresh may still hold an old value: never judge by it.
  if (funds.isError) return { kind: 'unreadable' };
  const available = funds.availableAtomic;
  const fee = funds.feeAtomic;
  if (available === null || fee === null) return { kind: 'checking' };
  const own = amountAtomic + fee;
  // Decided without the other requests: they can only make it worse.
  if (own > available) return { kind: 'short-alone', shortAtomic: own - available };
  // Nor by an old copy of the other requests' lists: a newer request may be missing from it.
  if (funds.isOthersError) return { kind: 'others-unreadable' };
  if (!funds.committed) return { kind: 'others-unread' };
  const { committed } = funds;
  const needed = own + committed.amountAtomic + BigInt(committed.count) * fee;
  return needed > available
    ? { kind: 'short', shortAtomic: needed - available }
    : { kind: 'covered', leftAtomic: available - needed };
}

const tones = {
  good: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  warn: 'border-amber-300 bg-amber-50 text-amber-950',
  bad: 'border-red-300 bg-red-50 text-red-950',
  neutral: 'border-slate-200 bg-slate-50 text-slate-800',
} as const;

const toneOf: Record<Verdict['kind'], keyof typeof tones> = {
  unreadable: 'warn',
  checking: 'neutral',
  'short-alone': 'bad',
  'others-unread': 'neutral',
  'others-unreadable': 'warn',
  short: 'warn',
  covered: 'good',
};

/** The verdict in words, each opening with its word so that colour is never the only signal. */
function VerdictText({
  verdict,
  request,
  decimals,
  isAtLeast,
}: {
  verdict: Verdict;
  request: WithdrawalRequest;
  decimals: number | null;
  isAtLeast: boolean;
}) {
  const ifApproved =
    request.status === 'AWAITING_APPROVAL'
      ? 'If approved, it may fail when sent.'
      : 'It may fail when sent.';
  switch (verdict.kind) {
    case 'unreadable':
      return (
        <>
          <strong>Not checked:</strong> the wallet&apos;s balance could not be read, so whether it
          covers this request is unknown.
        </>
      );
    case 'checking':
      return <>Checking the wallet&apos;s balance…</>;
    case 'short-alone':
      return (
        <>
          <strong>Not covered:</strong> short by{' '}
          <Amount atomic={verdict.shortAtomic} decimals={decimals} asset={request.asset} />. The
          wallet lacks the funds for this request even without the other open requests. {ifApproved}
        </>
      );
    case 'others-unread':
      return (
        <>
          <strong>Not checked yet:</strong> the wallet&apos;s other open requests are not read.
        </>
      );
    case 'others-unreadable':
      return (
        <>
          <strong>Not checked:</strong> the wallet&apos;s other open requests could not be read, so
          whether they leave enough for this request is unknown.
        </>
      );
    case 'short':
      return (
        <>
          <strong>Not covered:</strong> short by {isAtLeast ? 'at least ' : ''}
          <Amount atomic={verdict.shortAtomic} decimals={decimals} asset={request.asset} />.{' '}
          {ifApproved}
        </>
      );
    case 'covered':
      return isAtLeast ? (
        <>
          <strong>Covered, as far as listed:</strong> at most{' '}
          <Amount atomic={verdict.leftAtomic} decimals={decimals} asset={request.asset} /> left
          after this and the other open requests; more may be open than the lists show.
        </>
      ) : (
        <>
          <strong>Covered:</strong>{' '}
          <Amount atomic={verdict.leftAtomic} decimals={decimals} asset={request.asset} /> left
          after this and the other open requests.
        </>
      );
  }
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5">
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="min-w-0 text-right text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * Whether the wallet can still pay an open request, beside the approval: the upstream reserves
 * nothing before a request is sent, so the available balance also counts what the wallet's other
 * open requests will take, and an approval it cannot cover fails after the fact.
 */
export function FundsCheck({
  request,
  decimals,
  funds,
}: {
  request: WithdrawalRequest;
  decimals: number | null;
  funds: Funds;
}) {
  if (!needsFundsCheck(request)) return null;
  const amountAtomic = BigInt(request.amountAtomic);
  const verdict = verdictOf(amountAtomic, funds);
  const { committed, isAtLeast } = funds;
  // Null: not known yet which the asset is; 0: a token, whose fee is paid in TRX.
  const fee = funds.feeAtomic;
  const hasFee = fee !== null && fee > 0n;
  const money = (atomic: bigint) => (
    <Amount atomic={atomic} decimals={decimals} asset={request.asset} />
  );

  return (
    <Panel title="Funds">
      <div className="space-y-3 p-4 text-sm">
        <dl className="space-y-2">
          <Row label="Available now">
            {funds.isError ? (
              'Could not be read'
            ) : funds.availableAtomic === null ? (
              <Skeleton className="inline-block h-4 w-28 align-middle" />
            ) : (
              money(funds.availableAtomic)
            )}
          </Row>
          <Row label="Other open requests">
            {!committed ? (
              funds.isOthersError ? (
                'Could not be read'
              ) : (
                'Not read yet'
              )
            ) : committed.count === 0 ? (
              isAtLeast ? (
                'None listed; more may be open than the lists show'
              ) : (
                'None'
              )
            ) : (
              <>
                {isAtLeast ? 'at least ' : ''}
                {money(committed.amountAtomic)} in {committed.count}
                {isAtLeast ? ' or more' : ''}{' '}
                {committed.count === 1 && !isAtLeast ? 'request' : 'requests'}
                {hasFee ? ', and their fees' : ''}
              </>
            )}
          </Row>
          <Row label="This request">
            {money(amountAtomic)}
            {hasFee ? <> and its {money(fee)} fee</> : null}
          </Row>
        </dl>
        <p role="status" className={clsx('rounded-md border p-3', tones[toneOf[verdict.kind]])}>
          <VerdictText
            verdict={verdict}
            request={request}
            decimals={decimals}
            isAtLeast={isAtLeast}
          />
        </p>
        <p className="text-xs text-slate-600">
          The settlement service reserves an amount only once a request is sent.{' '}
          {fee === null
            ? ''
            : hasFee
              ? 'The flat network fee of each TRX transfer is counted.'
              : 'A token withdrawal also needs TRX for its network fee, not counted here.'}
        </p>
      </div>
    </Panel>
  );
}
