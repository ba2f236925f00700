/** Timestamps: shown in the operator's zone, with the exact UTC value on hover. */

import { createIdleAhead } from './idle-ahead';

// Made on first use, not at import: building a DateTimeFormat loads the locale's ICU data, the
// costliest step of evaluating the overview's chunk (CPU profile of the first page, 4x
// throttled), which delayed the page header before any timestamp was on screen.
let localFormat: Intl.DateTimeFormat | null = null;

/**
 * Formatted timestamps by ISO string. Intl formatting is the costliest part of rendering a
 * list row (profiled while scrolling 10,000 rows); a row scrolled back into view reuses it.
 * The UTC text of the same timestamp (a row's hover title) is kept beside it.
 */
const formatted = new Map<string, { local?: string; utc?: string }>();
const MAX_FORMATTED = 20_000;

function entryFor(iso: string): { local?: string; utc?: string } {
  let entry = formatted.get(iso);
  if (entry === undefined) {
    if (formatted.size >= MAX_FORMATTED) formatted.clear();
    entry = {};
    formatted.set(iso, entry);
  }
  return entry;
}

export function formatLocal(iso: string): string {
  const entry = entryFor(iso);
  if (entry.local !== undefined) return entry.local;
  const date = new Date(iso);
  localFormat ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  entry.local = Number.isNaN(date.getTime()) ? iso : localFormat.format(date);
  return entry.local;
}

export function formatUtc(iso: string): string {
  const entry = entryFor(iso);
  if (entry.utc !== undefined) return entry.utc;
  const date = new Date(iso);
  entry.utc = Number.isNaN(date.getTime())
    ? iso
    : `${date.toISOString().replace('T', ' ').replace('Z', '')} UTC`;
  return entry.utc;
}

/** Formatting ahead stops here: the rest of the cache is left for what is shown. */
const MAX_AHEAD = MAX_FORMATTED * 0.75;
const formatAhead = createIdleAhead();

/**
 * Formats, in the browser's idle time, the timestamps of rows that arrived and are not shown
 * yet, so that scrolling them into view finds their text ready: formatting was ~8% of a
 * virtualized list's scroll step, each row's first showing (profiled scrolling 10,000 rows).
 * The newest list replaces one still being worked through; what is formatted already is
 * skipped.
 */
export function formatAheadWhenIdle<Row>(
  rows: readonly Row[],
  timestampOf: (row: Row) => string,
): void {
  formatAhead(rows, (row) => {
    if (formatted.size >= MAX_AHEAD) return false;
    const iso = timestampOf(row);
    if (formatted.get(iso)?.utc === undefined) {
      formatLocal(iso);
      formatUtc(iso);
    }
    return true;
  });
}

/** "3 s ago", "5 min ago": for last-seen style labels. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/** `datetime-local` input value (local zone) to ISO UTC, or undefined when empty/invalid. */
export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** ISO UTC to a `datetime-local` input value in the local zone. */
export function isoToLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
