import { describe, expect, it } from 'vitest';
import { startTasks } from './trace-tasks';

const URL = 'http://127.0.0.1:8080/';
const MAIN = { pid: 7, tid: 1 };
const task = (ts: number, durMs: number, cpuMs: number, where = MAIN) => ({
  name: 'RunTask',
  ph: 'X',
  ...where,
  ts,
  dur: durMs * 1000,
  tdur: cpuMs * 1000,
});

const trace = [
  // The blank page before the measured load, in the same renderer.
  {
    name: 'navigationStart',
    ph: 'R',
    ...MAIN,
    ts: 0,
    args: { data: { documentLoaderURL: 'about:blank' } },
  },
  {
    name: 'navigationStart',
    ph: 'R',
    ...MAIN,
    ts: 1_000,
    args: { data: { documentLoaderURL: URL } },
  },
  task(2_000, 40, 30), // before the first paint: not counted
  { name: 'firstContentfulPaint', ph: 'R', ...MAIN, ts: 100_000 },
  task(110_000, 30, 10), // 4x wall 120 -> 70 blocking; 4x cpu 40 -> 0
  task(200_000, 5, 5), // short either way
  task(300_000, 20, 15), // 4x wall 80 -> 30; 4x cpu 60 -> 10
  task(400_000, 60, 60, { pid: 7, tid: 2 }), // another thread: not counted
  task(500_000, 60, 60, { pid: 9, tid: 1 }), // another process: not counted
];

describe('startTasks', () => {
  it("times the page's main-thread tasks after its first paint by wall clock and by CPU", () => {
    expect(startTasks(trace, URL)).toEqual({
      count: 3,
      wallMs: 55,
      cpuMs: 30,
      blockingWallMs: 100,
      blockingCpuMs: 10,
    });
  });

  it('gives no CPU figures for a trace recorded without thread times, never the wall time', () => {
    const withoutThreadTime = trace.map((e) => {
      if (!('tdur' in e)) return e;
      const { tdur: _, ...rest } = e;
      return rest;
    });
    expect(startTasks(withoutThreadTime, URL)).toMatchObject({
      count: 3,
      wallMs: 55,
      cpuMs: null,
      blockingWallMs: 100,
      blockingCpuMs: null,
    });
  });

  it('is null without the measured load or without its first paint', () => {
    expect(startTasks(trace, 'http://127.0.0.1:8080/other')).toBeNull();
    expect(
      startTasks(
        trace.filter((e) => e.name !== 'firstContentfulPaint'),
        URL,
      ),
    ).toBeNull();
  });
});
