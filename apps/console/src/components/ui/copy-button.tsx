import { clsx } from 'clsx';
import { useEffect, useState } from 'react';
import { focusRing } from './button';

/** Copies `value`; the accessible name says what is copied. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [isCopied, setIsCopied] = useState(false);
  useEffect(() => {
    if (!isCopied) return;
    const timer = setTimeout(() => {
      setIsCopied(false);
    }, 1500);
    return () => {
      clearTimeout(timer);
    };
  }, [isCopied]);

  const handleCopy = () => {
    void navigator.clipboard
      .writeText(value)
      .then(() => {
        setIsCopied(true);
      })
      .catch(() => {
        setIsCopied(false);
      });
  };

  return (
    <button
      type="button"
      onClick={handleCopy}
      aria-label={`Copy ${label}`}
      title={`Copy ${label}`}
      className={clsx(
        'inline-flex shrink-0 items-center rounded px-1.5 py-0.5 text-xs font-medium text-slate-600 hover:bg-slate-200 hover:text-slate-900',
        focusRing,
      )}
    >
      {isCopied ? 'Copied' : 'Copy'}
      <span className="sr-only" aria-live="polite">
        {isCopied ? `${label} copied` : ''}
      </span>
    </button>
  );
}

/** An id in monospace with a copy button; long ids are shortened visually, never in the copy. */
export function CopyableId({
  value,
  label,
  isShort = false,
}: {
  value: string;
  label: string;
  isShort?: boolean;
}) {
  const shown = isShort && value.length > 16 ? `${value.slice(0, 8)}…${value.slice(-6)}` : value;
  return (
    <span className="inline-flex max-w-full items-center gap-1 align-middle">
      <code className="truncate font-mono text-xs text-slate-800" title={value}>
        {shown}
      </code>
      <CopyButton value={value} label={label} />
    </span>
  );
}
