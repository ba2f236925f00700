import { clsx } from 'clsx';
import type { ReactNode } from 'react';

export type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

// The dot is the box's ::before (decorative, never read out): one element per badge, not two,
// in list rows that scroll thousands of times.
const tones: Record<Tone, string> = {
  neutral: 'bg-slate-100 text-slate-800 ring-slate-300 before:bg-slate-500',
  success: 'bg-emerald-50 text-emerald-800 ring-emerald-300 before:bg-emerald-600',
  warning: 'bg-amber-50 text-amber-900 ring-amber-300 before:bg-amber-500',
  danger: 'bg-red-50 text-red-800 ring-red-300 before:bg-red-600',
  info: 'bg-sky-50 text-sky-900 ring-sky-300 before:bg-sky-600',
};

/** Colour plus text: the meaning never rests on colour alone. */
export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span
      className={clsx(
        'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset before:size-1.5 before:rounded-full',
        tones[tone],
      )}
    >
      {children}
    </span>
  );
}

const statusTones: Record<string, Tone> = {
  PENDING: 'warning',
  CONFIRMED: 'success',
  FAILED: 'danger',
  FAILED_ON_CHAIN: 'danger',
  ACTIVE: 'success',
  DISABLED: 'neutral',
  ARCHIVED: 'neutral',
  PROVISIONING: 'warning',
  ONLINE: 'success',
  OFFLINE: 'danger',
};

/** A status value from the interface (transaction, wallet, key, Co-Signer); unknown ones are neutral. */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTones[status] ?? 'neutral'}>{status.replaceAll('_', ' ')}</Badge>;
}
