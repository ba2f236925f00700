import type { ExplanationCause, RequestExplanation } from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { CopyableId } from '../../../components/ui/copy-button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { PendingNotice } from '../../../components/ui/query-view';
import { Time } from '../../../components/ui/time';
import { requestExplanationQuery } from '../api/request-explanation';

const CAUSES: Record<ExplanationCause, string> = {
  'timestamp-skew': 'Timestamp outside the allowed clock skew',
  'nonce-reused': 'Nonce already used',
  'body-hash-mismatch': 'Body hash does not match the bytes sent',
  'unknown-key': 'Unknown API key',
  'signature-refused': 'Signature refused',
  'missing-scope': 'API key lacks the required scope',
  'idempotency-conflict': 'Idempotency key reused with a different request',
  validation: 'Request failed validation',
  'domain-rule': 'Refused by a business rule',
  other: 'Other failure',
  'not-failed': 'This call did not fail',
};

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="min-w-0 text-slate-900">{children}</dd>
    </div>
  );
}

const Hash = ({ value, label }: { value: string | null; label: string }) =>
  value ? <CopyableId value={value} label={label} /> : <span>none (no body)</span>;

function Skew({ skew }: { skew: NonNullable<RequestExplanation['skew']> }) {
  const direction = skew.seconds >= 0 ? 'ahead of' : 'behind';
  return (
    <Fact label="Clock skew">
      Our timestamp was {Math.abs(skew.seconds)} seconds {direction} the upstream&apos;s clock
      (allowed ±{skew.allowedSeconds} s).
    </Fact>
  );
}

function Idempotency({ idem }: { idem: NonNullable<RequestExplanation['idempotency']> }) {
  const parts = [
    { name: 'method', label: 'Method' },
    { name: 'target', label: 'Target' },
    { name: 'bodyHash', label: 'Body hash' },
  ] as const;
  return (
    <div className="mt-3">
      <p className="text-sm text-slate-800">
        Key <code className="font-mono text-xs">{idem.key}</code> was first used by request{' '}
        <code className="font-mono text-xs">{idem.firstRequestId}</code> at{' '}
        <Time value={idem.firstAt} />. Differs:{' '}
        <strong>{idem.differs.join(', ') || 'nothing'}</strong>.
      </p>
      <table className="mt-2 w-full text-left text-xs" aria-label="Idempotency fingerprint">
        <thead>
          <tr>
            <th scope="col" className="py-1 pr-3">
              Part
            </th>
            <th scope="col" className="py-1 pr-3">
              First use
            </th>
            <th scope="col" className="py-1 pr-3">
              This request
            </th>
          </tr>
        </thead>
        <tbody>
          {parts.map(({ name, label }) => {
            const isDifferent = idem.differs.includes(name);
            return (
              <tr key={name} className={isDifferent ? 'bg-red-50 font-semibold text-red-900' : ''}>
                <th scope="row" className="py-1 pr-3">
                  {label}
                  {isDifferent ? ' (differs)' : ''}
                </th>
                <td className="py-1 pr-3 font-mono break-all">{idem.first[name] ?? 'none'}</td>
                <td className="py-1 pr-3 font-mono break-all">{idem.this[name] ?? 'none'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The reason in words, then the evidence the BFF found for it. */
export function ExplanationView({ explanation: e }: { explanation: RequestExplanation }) {
  return (
    <div className="space-y-2 text-sm">
      <p className="font-semibold text-slate-900">{CAUSES[e.cause]}</p>
      <p className="text-slate-800">{e.summary}</p>
      <dl className="grid grid-cols-[minmax(8rem,auto)_minmax(0,1fr)] gap-x-4 gap-y-1 text-xs">
        <Fact label="Call">
          <code className="font-mono">
            {e.method} {e.path}
          </code>{' '}
          (attempt {e.attempt}) → {e.status ?? 'no answer'}
          {e.code ? ` ${e.code}` : ''}
        </Fact>
        {e.skew ? <Skew skew={e.skew} /> : null}
        {e.nonce ? (
          <Fact label="Nonce reused">
            {e.signed ? <code className="font-mono">{e.signed.nonce}</code> : 'The nonce'} was first
            used by request <code className="font-mono">{e.nonce.firstRequestId}</code> at{' '}
            <Time value={e.nonce.firstAt} /> (nonces are remembered {e.nonce.retentionSeconds} s).
          </Fact>
        ) : null}
        {e.bodyHash ? (
          <>
            <Fact label="Declared body hash">
              <Hash value={e.bodyHash.declared} label="declared body hash" />
            </Fact>
            <Fact label="Hash of bytes sent">
              <Hash value={e.bodyHash.ofBytesSent} label="hash of bytes sent" />
            </Fact>
          </>
        ) : null}
        {e.key ? (
          <Fact label="API key">
            <code className="font-mono">{e.key.keyId}</code>{' '}
            {e.key.isConfigured ? 'is configured' : 'is not configured in the BFF'}; scopes:{' '}
            {e.key.scopes.join(', ') || 'none'}
            {e.key.requiredScope ? `; this call needs ${e.key.requiredScope}` : ''}
          </Fact>
        ) : null}
        {e.validation ? (
          <Fact label="Validation">
            Field <code className="font-mono">{e.validation.field ?? '(the whole body)'}</code>:{' '}
            {e.validation.rule}
          </Fact>
        ) : null}
      </dl>
      {e.idempotency ? <Idempotency idem={e.idempotency} /> : null}
      {e.findings.length > 0 ? (
        <ul className="list-disc space-y-0.5 pl-5 text-xs text-slate-700" aria-label="Findings">
          {e.findings.map((finding) => (
            <li key={finding}>{finding}</li>
          ))}
        </ul>
      ) : null}
      {e.signed ? (
        <details className="text-xs">
          <summary className="cursor-pointer text-slate-700">
            Signed lines (non-secret; never the signature)
          </summary>
          <dl className="mt-1 grid grid-cols-[minmax(8rem,auto)_minmax(0,1fr)] gap-x-4 gap-y-1 font-mono">
            <Fact label="method">{e.signed.method}</Fact>
            <Fact label="target">{e.signed.target}</Fact>
            <Fact label="body hash">{e.signed.bodyHash ?? 'none'}</Fact>
            <Fact label="timestamp">{e.signed.timestamp}</Fact>
            <Fact label="nonce">{e.signed.nonce}</Fact>
            <Fact label="key id">{e.signed.keyId}</Fact>
          </dl>
        </details>
      ) : null}
    </div>
  );
}

/** Loads and shows why the call sent with `requestId` failed. */
export function RequestExplanationPanel({ requestId }: { requestId: string }) {
  const query = useQuery(requestExplanationQuery(requestId));
  if (query.isPending) {
    return (
      <>
        <p role="status" className="text-xs text-slate-600">
          Explaining request {requestId}…
        </p>
        <PendingNotice query={query} />
      </>
    );
  }
  if (query.isError) return <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />;
  return <ExplanationView explanation={query.data} />;
}
