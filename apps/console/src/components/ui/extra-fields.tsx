/**
 * Fields the interface does not define are shown as they came, never dropped
 * (schemas evolve additively).
 */
function extraEntries(object: Record<string, unknown>, known: readonly string[]) {
  return Object.entries(object).filter(([key]) => !known.includes(key));
}

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return value.toString();
  }
  return JSON.stringify(value, null, 2);
}

export function ExtraFields({
  object,
  known,
  title = 'Other fields',
}: {
  object: Record<string, unknown>;
  known: readonly string[];
  title?: string;
}) {
  const entries = extraEntries(object, known);
  if (entries.length === 0) return null;
  return (
    <div className="border-t border-slate-100 p-4">
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">{title}</h3>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[minmax(8rem,auto)_minmax(0,1fr)]">
        {entries.map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="font-mono text-xs text-slate-600">{key}</dt>
            <dd className="min-w-0">
              <pre className="font-mono text-xs break-all whitespace-pre-wrap text-slate-900">
                {formatValue(value)}
              </pre>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Raw JSON, for "show me exactly what came back". */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <pre
      aria-label={label}
      tabIndex={0}
      className="relative max-h-[32rem] overflow-auto rounded-md bg-slate-900 p-4 font-mono text-xs text-slate-100"
    >
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
