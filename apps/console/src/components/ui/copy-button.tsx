import { clsx } from 'clsx';
import { useEffect, useState } from 'react';
import { shortId } from '../../lib/short-id';
import { focusRing } from './button';
import { announce, ensureAnnouncer, withdraw } from './live-announcer';

/**
 * Copies `value`; the accessible name says what is copied. "Copied" belongs to the value that
 * was copied: a button handed another value (a recycled list row) says "Copy" again at once,
 * without being created anew. Screen readers hear it from the page's one live region.
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copiedValue, setCopiedValue] = useState<string | null>(null);
  const isCopied = copiedValue === value;
  useEffect(() => {
    ensureAnnouncer();
  }, []);
  // Said while this button says "Copied", withdrawn when it says "Copy" again.
  useEffect(() => {
    if (!isCopied) return;
    const message = `${label} copied`;
    announce(message);
    return () => {
      withdraw(message);
    };
  }, [isCopied, label]);
  useEffect(() => {
    if (copiedValue === null) return;
    const timer = setTimeout(() => {
      setCopiedValue(null);
    }, 1500);
    return () => {
      clearTimeout(timer);
    };
  }, [copiedValue]);

  const handleCopy = () => {
    void navigator.clipboard
      .writeText(value)
      .then(() => {
        setCopiedValue(value);
      })
      .catch(() => {
        setCopiedValue(null);
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
  const shown = isShort ? shortId(value) : value;
  return (
    <span className="inline-flex max-w-full items-center gap-1 align-middle">
      <code className="truncate font-mono text-xs text-slate-800" title={value}>
        {shown}
      </code>
      <CopyButton value={value} label={label} />
    </span>
  );
}
