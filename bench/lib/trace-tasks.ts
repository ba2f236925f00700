/**
 * The measured page's main-thread tasks in a Chromium trace (Lighthouse's, `--save-assets`),
 * timed twice: by the wall clock, which Lighthouse's simulation scales by its 4x CPU slowdown,
 * and by the thread's own CPU clock (`tdur`), which leaves out the time the thread was not
 * running (ready with no core free, or waiting on another thread). On two cores shared with
 * Chromium's other threads and processes, the BFF and Lighthouse itself, the two differ by about
 * half (BENCHMARKS.md): the CPU figure tells how much of the blocking time is the page's own
 * work.
 */

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { documentLoaderURL?: string } };
};

export type StartTasks = {
  /** Top-level tasks from the first contentful paint to the end of the trace. */
  count: number;
  wallMs: number;
  /** Null when a task carries no thread time (a trace recorded without it). */
  cpuMs: number | null;
  /** Sum over those tasks of (4 x duration - 50 ms) where positive: TBT's rule, wall clock. */
  blockingWallMs: number;
  /** The same from each task's thread CPU time; null as cpuMs. */
  blockingCpuMs: number | null;
};

const SLOWDOWN = 4;
const LONG_TASK_MS = 50;

/** `url`: the measured navigation's document URL; null when the trace holds no such load. */
export function startTasks(events: readonly TraceEvent[], url: string): StartTasks | null {
  const navigation = events.findLast(
    (e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL === url,
  );
  if (!navigation) return null;
  const { pid, tid } = navigation;
  const paint = events.find(
    (e) => e.name === 'firstContentfulPaint' && e.pid === pid && e.ts >= navigation.ts,
  );
  if (!paint) return null;
  const tasks = events.filter(
    (e) =>
      e.ph === 'X' && e.name === 'RunTask' && e.pid === pid && e.tid === tid && e.ts >= paint.ts,
  );
  const blocking = (ms: number) => Math.max(0, SLOWDOWN * ms - LONG_TASK_MS);
  let wallMs = 0;
  let cpuMs = 0;
  let blockingWallMs = 0;
  let blockingCpuMs = 0;
  let hasThreadTime = true;
  for (const task of tasks) {
    const wall = (task.dur ?? 0) / 1000;
    wallMs += wall;
    blockingWallMs += blocking(wall);
    // Never the wall time in its place: that would report the waits as the page's work.
    if (task.tdur === undefined) hasThreadTime = false;
    const cpu = (task.tdur ?? 0) / 1000;
    cpuMs += cpu;
    blockingCpuMs += blocking(cpu);
  }
  return {
    count: tasks.length,
    wallMs,
    cpuMs: hasThreadTime ? cpuMs : null,
    blockingWallMs,
    blockingCpuMs: hasThreadTime ? blockingCpuMs : null,
  };
}
