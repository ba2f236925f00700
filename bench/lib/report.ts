import type { Chart } from './chart';

/**
 * Result rows of the benchmark groups, their table and their JSON. A row is one figure with
 * the reference measured beside it in the same run, the ratio and, where the issue sets one,
 * the target and whether it was met.
 */

export type Row = {
  metric: string;
  value: number | null;
  unit: string;
  /** The reference measured in the same run (null when the figure has none). */
  reference: { name: string; value: number | null } | null;
  /** value / reference.value. */
  ratio: number | null;
  target: string | null;
  isMet: boolean | null;
  note: string | null;
};

export type GroupResult = {
  id: string;
  title: string;
  rows: Row[];
  notes: string[];
  /** Curves of a figure over growing sizes, drawn as SVG by the runner. */
  charts: Chart[];
  durationMs: number;
  error: string | null;
};

export type RowInput = {
  metric: string;
  value: number | null;
  unit: string;
  reference?: { name: string; value: number | null };
  target?: string;
  isMet?: boolean | null;
  note?: string;
};

function row(input: RowInput): Row {
  const ref = input.reference ?? null;
  const ratio =
    ref?.value !== null && ref?.value !== undefined && ref.value !== 0 && input.value !== null
      ? input.value / ref.value
      : null;
  return {
    metric: input.metric,
    value: input.value,
    unit: input.unit,
    reference: ref,
    ratio,
    target: input.target ?? null,
    isMet: input.isMet ?? null,
    note: input.note ?? null,
  };
}

/** Nearest-rank percentile of unsorted samples (null when there are none). */
export function percentile(samples: readonly number[], p: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? null;
}

export function median(samples: readonly number[]): number | null {
  return percentile(samples, 50);
}

function formatNumber(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '-';
  const abs = Math.abs(value);
  if (Number.isInteger(value) && abs < 10_000) return String(value);
  if (abs >= 100_000) return `${(value / 1000).toFixed(0)}k`;
  if (abs >= 10_000) return `${(value / 1000).toFixed(1)}k`;
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** A plain-text table of one group, every column as wide as its widest cell. */
export function formatGroup(group: GroupResult): string {
  const header = ['metric', 'value', 'reference', 'ratio', 'target', 'met'];
  const cells = group.rows.map((r) => [
    r.metric,
    `${formatNumber(r.value)} ${r.unit}`.trim(),
    r.reference ? `${r.reference.name}: ${formatNumber(r.reference.value)}` : '',
    r.ratio === null ? '' : `${r.ratio.toFixed(2)}x`,
    r.target ?? '',
    r.isMet === null ? '' : r.isMet ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => pad(v, widths[i] ?? 0))
      .join(' | ')
      .trimEnd();
  const out = [
    `\n== ${group.title} (${(group.durationMs / 1000).toFixed(1)} s) ==`,
    line(header),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...cells.map(line),
  ];
  for (const n of group.notes) out.push(`  note: ${n}`);
  for (const r of group.rows) if (r.note) out.push(`  ${r.metric}: ${r.note}`);
  if (group.error) out.push(`  ERROR: ${group.error}`);
  return out.join('\n');
}

/** Collects the rows and notes of one group. */
export class GroupRecorder {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];
  readonly charts: Chart[] = [];

  add(input: RowInput): Row {
    const r = row(input);
    this.rows.push(r);
    return r;
  }

  note(text: string): void {
    this.notes.push(text);
  }

  chart(chart: Chart): void {
    this.charts.push(chart);
  }
}
