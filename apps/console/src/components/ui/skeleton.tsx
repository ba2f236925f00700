import { clsx } from 'clsx';

export function Skeleton({ className }: { className?: string }) {
  return (
    <div aria-hidden="true" className={clsx('animate-pulse rounded bg-slate-200', className)} />
  );
}

/** Placeholder rows while a table loads; announced once for screen readers. */
export function TableSkeleton({ rows = 5, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-2 p-4">
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-8 w-full" />
      ))}
    </div>
  );
}
