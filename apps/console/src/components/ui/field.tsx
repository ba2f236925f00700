import { clsx } from 'clsx';
import { useId } from 'react';
import type { ComponentProps, ReactNode, SelectHTMLAttributes } from 'react';

export const inputClass =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:border-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-indigo-600 disabled:bg-slate-100 disabled:text-slate-600 aria-[invalid=true]:border-red-600';

type FieldChrome = {
  label: string;
  hint?: ReactNode;
  error?: string | null | undefined;
  /** Extra content to the right of the label (e.g. a counter). */
  aside?: ReactNode;
};

function Chrome({
  id,
  label,
  hint,
  error,
  aside,
  children,
}: FieldChrome & { id: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        {aside}
      </div>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export function TextField({
  label,
  hint,
  error,
  aside,
  className,
  ...input
}: FieldChrome & ComponentProps<'input'>) {
  const id = useId();
  return (
    <Chrome id={id} label={label} hint={hint} error={error} aside={aside}>
      <input
        id={id}
        className={clsx(inputClass, className)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...input}
      />
    </Chrome>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  aside,
  className,
  ...textarea
}: FieldChrome & ComponentProps<'textarea'>) {
  const id = useId();
  return (
    <Chrome id={id} label={label} hint={hint} error={error} aside={aside}>
      <textarea
        id={id}
        className={clsx(inputClass, 'font-mono', className)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...textarea}
      />
    </Chrome>
  );
}

export type Option = { value: string; label: string };

export function SelectField({
  label,
  hint,
  error,
  aside,
  options,
  className,
  ...select
}: FieldChrome & SelectHTMLAttributes<HTMLSelectElement> & { options: Option[] }) {
  const id = useId();
  return (
    <Chrome id={id} label={label} hint={hint} error={error} aside={aside}>
      <select
        id={id}
        className={clsx(inputClass, className)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...select}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Chrome>
  );
}
