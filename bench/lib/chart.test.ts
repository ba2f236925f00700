import { describe, expect, it } from 'vitest';
import { niceTicks, renderChart, type Chart } from './chart';

const CHART: Chart = {
  id: 'relay-p99',
  title: 'Relay p99 <latency> & "sockets"',
  xLabel: 'browser sockets',
  yLabel: 'p99 ms',
  isLogX: true,
  target: { y: 20, label: 'target 20 ms' },
  series: [
    {
      name: 'BFF',
      points: [
        { x: 10, y: 4 },
        { x: 100, y: 12 },
        { x: 1000, y: null },
      ],
    },
    {
      name: 'fastest ws',
      points: [
        { x: 10, y: 3 },
        { x: 1000, y: 30 },
      ],
      isReference: true,
    },
  ],
};

describe('niceTicks', () => {
  it('gives round steps from zero that cover the maximum', () => {
    expect(niceTicks(47)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(niceTicks(0.9)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
  });
});

describe('renderChart', () => {
  const svg = renderChart(CHART);

  it('is one escaped SVG document with a legend entry per series', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('Relay p99 &#60;latency&#62; &#38; &#34;sockets&#34;');
    expect(svg).not.toContain('<latency>');
    expect(svg).toContain('>BFF</text>');
    expect(svg).toContain('>fastest ws</text>');
    expect(svg).toContain('(log scale)');
  });

  it('draws a point per measured size and skips sizes that were not measured', () => {
    expect(svg.match(/<circle /g)).toHaveLength(4);
    // 10 and 1,000 are the ends of the log axis; 100 sits exactly half way between them.
    const xs = [...svg.matchAll(/<circle cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(xs[1]! - xs[0]!).toBeCloseTo((xs[3]! - xs[2]!) / 2, 0);
  });

  it('scales y so the highest value and the target both fit', () => {
    expect(svg).toContain('>30</text>');
    expect(svg).toContain('stroke-dasharray="6 4"');
    expect(svg).toContain('target 20 ms');
  });
});
