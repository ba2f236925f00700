/**
 * Line charts as standalone SVG, so BENCHMARKS.md shows how each cost grows with the work
 * without a plotting dependency. Pure: data in, markup out.
 */

type Point = { x: number; y: number | null };
type Series = { name: string; points: Point[]; isReference?: boolean };

export type Chart = {
  /** File name without extension: [a-z0-9-]. */
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** A horizontal target line, when the issue sets one. */
  target?: { y: number; label: string };
  /** Sizes that grow by 10x (sockets, stored rows) read best on a log scale. */
  isLogX?: boolean;
};

const WIDTH = 640;
const HEIGHT = 360;
const MARGIN = { top: 44, right: 150, bottom: 52, left: 64 };
const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2'];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** 1, 2, 5 x 10^n steps: about `count` round ticks from 0 to at least `max`. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const ticks: number[] = [];
  for (let value = 0; value < max + step / 2; value += step)
    ticks.push(Number(value.toPrecision(12)));
  if ((ticks.at(-1) ?? 0) < max) ticks.push(Number(((ticks.at(-1) ?? 0) + step).toPrecision(12)));
  return ticks;
}

function formatTick(value: number): string {
  if (value >= 1_000_000) return `${value / 1_000_000}M`;
  if (value >= 1_000) return `${value / 1_000}k`;
  return String(value);
}

export function renderChart(chart: Chart): string {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const xs = [...new Set(chart.series.flatMap((s) => s.points.map((p) => p.x)))].sort(
    (a, b) => a - b,
  );
  const ys = chart.series.flatMap((s) => s.points.flatMap((p) => (p.y === null ? [] : [p.y])));
  const yTicks = niceTicks(Math.max(...ys, chart.target?.y ?? 0, 0));
  const yMax = yTicks.at(-1) ?? 1;
  const xMin = xs[0] ?? 0;
  const xMax = xs.at(-1) ?? 1;
  const toX = (x: number): number => {
    if (xMax === xMin) return MARGIN.left + plotW / 2;
    const t =
      chart.isLogX && xMin > 0
        ? (Math.log10(x) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))
        : (x - xMin) / (xMax - xMin);
    return MARGIN.left + t * plotW;
  };
  const toY = (y: number): number => MARGIN.top + plotH - (y / yMax) * plotH;
  const fixed = (n: number): string => n.toFixed(1);

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" font-family="system-ui, sans-serif" font-size="12" role="img" aria-label="${escapeXml(chart.title)}">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="24" font-size="14" font-weight="600" fill="#111827">${escapeXml(chart.title)}</text>`,
  ];
  for (const tick of yTicks) {
    const y = fixed(toY(tick));
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y}" y2="${y}" stroke="#e5e7eb"/>`,
      `<text x="${MARGIN.left - 8}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#4b5563">${formatTick(tick)}</text>`,
    );
  }
  for (const x of xs) {
    parts.push(
      `<text x="${fixed(toX(x))}" y="${MARGIN.top + plotH + 18}" text-anchor="middle" fill="#4b5563">${formatTick(x)}</text>`,
    );
  }
  parts.push(
    `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH}" stroke="#6b7280"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 12}" text-anchor="middle" fill="#111827">${escapeXml(chart.xLabel)}${chart.isLogX ? ' (log scale)' : ''}</text>`,
    `<text transform="translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#111827">${escapeXml(chart.yLabel)}</text>`,
  );
  if (chart.target) {
    const y = fixed(toY(chart.target.y));
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y}" y2="${y}" stroke="#111827" stroke-dasharray="6 4"/>`,
      `<text x="${MARGIN.left + plotW + 6}" y="${y}" dominant-baseline="middle" fill="#111827">${escapeXml(chart.target.label)}</text>`,
    );
  }
  chart.series.forEach((series, index) => {
    const color = COLORS[index % COLORS.length] ?? '#000000';
    const dash = series.isReference ? ' stroke-dasharray="4 3"' : '';
    const points = series.points
      .filter((p): p is { x: number; y: number } => p.y !== null)
      .sort((a, b) => a.x - b.x);
    if (points.length > 1) {
      const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${fixed(toX(p.x))} ${fixed(toY(p.y))}`);
      parts.push(
        `<path d="${d.join(' ')}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`,
      );
    }
    for (const p of points) {
      parts.push(`<circle cx="${fixed(toX(p.x))}" cy="${fixed(toY(p.y))}" r="3" fill="${color}"/>`);
    }
    const legendY = MARGIN.top + 8 + index * 18;
    const legendX = MARGIN.left + plotW + 6;
    parts.push(
      `<line x1="${legendX}" x2="${legendX + 18}" y1="${legendY}" y2="${legendY}" stroke="${color}" stroke-width="2"${dash}/>`,
      `<text x="${legendX + 24}" y="${legendY}" dominant-baseline="middle" fill="#111827">${escapeXml(series.name)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
