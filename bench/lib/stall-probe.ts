import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { sleep, trackChild, type Child } from './procs';

/** A wake-up later than this counts as a stall of the machine (the probe itself does nothing). */
const STALL_MS = 8;

/**
 * Runs in the probe process: says `ready` once it is timing, then wakes every millisecond and
 * reports each wake-up more than STALL_MS late, as `<epoch ms it was due> <ms late>`. CommonJS
 * from a string: no loader.
 */
const PROBE_SOURCE = `
const { performance } = require('node:perf_hooks');
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  const late = now - last - 1;
  if (late > ${STALL_MS}) process.stdout.write((performance.timeOrigin + last + 1).toFixed(1) + ' ' + late.toFixed(1) + '\\n');
  last = now;
}, 1);
process.stdout.write('ready\\n');
`;

export type Stalls = { count: number; longestMs: number; totalMs: number };

export type StallProbe = {
  /** The stalls whose start fell between two wall-clock moments (epoch ms). */
  between(fromMs: number, toMs: number): Stalls;
  /** Runs one round, noting its wall-clock window under `label`. */
  timed<T>(label: string, round: () => Promise<T>): Promise<T>;
  /** The stalls of each round of `label`, in order (after `settle`). */
  roundsText(label: string): string;
  /** Lets the last stall's line arrive: a stall is reported once the probe wakes after it. */
  settle(): Promise<void>;
  child: Child;
};

/**
 * A process that only wakes every millisecond and notes how late it woke. When the machine
 * withholds its cores from every process at once, for a few hundred milliseconds now and then,
 * the servers measured and this probe are all late together (BENCHMARKS.md, "The BFF's tail at
 * 500 req/s, located"); a round's note then says whether such stalls fell in it, beside a
 * figure that they would move.
 */
export function startStallProbe(logFile: string): StallProbe {
  const probe = spawn(process.execPath, ['-e', PROBE_SOURCE], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const stalls: { at: number; lateMs: number }[] = [];
  // A round begins once the probe is timing (or gone): on a loaded machine its start can
  // outlast a short round, which would then read as free of stalls it never saw.
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  createInterface({ input: probe.stdout }).on('line', (line) => {
    if (line === 'ready') {
      markReady();
      return;
    }
    const [at, late] = line.split(' ').map(Number);
    if (at !== undefined && late !== undefined && Number.isFinite(at) && Number.isFinite(late)) {
      stalls.push({ at, lateMs: late });
    }
  });
  // A probe that is gone reports nothing: its rounds must not read as free of stalls.
  let exitedAt = Infinity;
  probe.once('exit', () => {
    exitedAt = Date.now();
    markReady();
  });
  const windows = new Map<string, [number, number][]>();
  const between = (fromMs: number, toMs: number): Stalls => {
    const inside = stalls.filter((stall) => stall.at >= fromMs && stall.at < toMs);
    return {
      count: inside.length,
      longestMs: inside.reduce((most, stall) => Math.max(most, stall.lateMs), 0),
      totalMs: inside.reduce((sum, stall) => sum + stall.lateMs, 0),
    };
  };
  return {
    child: trackChild('stall-probe', probe, logFile),
    between,
    async timed(label, round) {
      await ready;
      const from = Date.now();
      try {
        return await round();
      } finally {
        const list = windows.get(label) ?? [];
        list.push([from, Date.now()]);
        windows.set(label, list);
      }
    },
    roundsText(label) {
      return (windows.get(label) ?? [])
        .map(([from, to]) =>
          to > exitedAt ? 'the probe was not running' : stallsText(between(from, to)),
        )
        .join(' / ');
    },
    settle: () => sleep(100),
  };
}

/** "3 stalls over 8 ms, longest 26 ms, 71 ms in all" (or "none over 8 ms"). */
export function stallsText(stalls: Stalls): string {
  if (stalls.count === 0) return `no stall over ${STALL_MS} ms`;
  return `${stalls.count} stall(s) over ${STALL_MS} ms, longest ${stalls.longestMs.toFixed(0)} ms, ${stalls.totalMs.toFixed(0)} ms in all`;
}
