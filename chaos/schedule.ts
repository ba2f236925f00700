/**
 * The fault schedule of one campaign: a pure function of (seed, length), so a seed printed by a
 * failed run replays the very same faults at the very same offsets. Nothing here reads the
 * clock, the environment or the machine (a fault the machine cannot inject, e.g. disk-full
 * without root, is still scheduled and then reported as skipped by the runner).
 */

/** sfc32 seeded through splitmix32: small, fast, and the same stream on every platform. */
export function createRng(seed: number): () => number {
  let state = seed >>> 0;
  const splitmix = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  return () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4_294_967_296;
  };
}

export type Rng = ReturnType<typeof createRng>;

export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** Relay clients the workload keeps open (browser tabs); faults name them by index. */
export const BROWSER_SOCKETS = 3;

/** Within the interface's +-300 s skew, with room for both processes stepped apart. */
export const MAX_CLOCK_STEP_MS = 120_000;

/**
 * With BFF replicas (`--replicas N`): which one a kill or a clock step hits, `'leader'` being
 * whichever holds the upstream stream when the fault fires. Absent with one BFF.
 */
export type ReplicaTarget = number | 'leader';

/** The BFF's per-attempt upstream timeout in the campaign (its UPSTREAM_TIMEOUT_MS). */
export const UPSTREAM_TIMEOUT_MS = 4_000;

/**
 * The longest the BFF may hold one upstream call: 3 attempts of UPSTREAM_TIMEOUT_MS and the
 * full-jitter backoff between them (under 100 ms, then under 200 ms). A sandbox frozen longer
 * than this must be answered by the BFF itself, with a retryable 503.
 */
export const UPSTREAM_BUDGET_MS = 3 * UPSTREAM_TIMEOUT_MS + 300;

export type Fault =
  | { kind: 'kill-bff'; downMs: number; replica?: ReplicaTarget }
  | { kind: 'kill-sandbox'; downMs: number }
  | { kind: 'upstream-503'; rate: number; durationMs: number }
  | { kind: 'latency'; latencyMs: number; durationMs: number }
  | { kind: 'duplicate-events'; rate: number; durationMs: number }
  | { kind: 'drop-upstream-socket'; everyMs: number; durationMs: number }
  | { kind: 'clock-step'; target: 'bff' | 'sandbox'; offsetMs: number; replica?: number }
  | { kind: 'drop-browser-socket'; socket: number }
  | { kind: 'stall-browser-socket'; socket: number; durationMs: number }
  | { kind: 'slow-browser-socket'; socket: number; durationMs: number }
  | { kind: 'disk-full'; durationMs: number }
  /**
   * Replicas only (they share PostgreSQL, where disk-full on a data dir does not apply):
   * pg_terminate_backend on the leader's election connection (it must step down, another
   * replica takes the stream), or on every BFF connection (pools, leader, LISTEN: in-flight
   * requests get a retryable 503, the listeners reconnect and read what they missed).
   */
  | { kind: 'pg-terminate'; target: 'leader-lock' | 'all' }
  /**
   * SIGSTOP, then SIGCONT after durationMs: the process is alive, the kernel still accepts its
   * connections, and nothing answers (a GC storm, a stuck VM, a paused container).
   */
  | { kind: 'freeze-sandbox'; durationMs: number }
  | { kind: 'freeze-bff'; durationMs: number; replica?: ReplicaTarget };

export type FaultKind = Fault['kind'];
/** The kinds of the freeze stream; every other kind comes from the seed's first stream. */
type FreezeKind = 'freeze-sandbox' | 'freeze-bff';
type FreezeFault = Extract<Fault, { kind: FreezeKind }>;
type StreamKind = Exclude<FaultKind, FreezeKind>;
export type ScheduledFault = { atMs: number; fault: Fault };

export type ScheduleInput = {
  seed: number;
  /** How long the workload runs under faults. */
  durationMs: number;
  /** Mean gap between two faults. */
  meanGapMs: number;
  /**
   * BFF replicas (default 1). With 1 the schedule is the one every seed had before replicas
   * existed, draw for draw; with more, kills and clock steps name a replica and PostgreSQL
   * faults replace disk-full.
   */
  replicas?: number;
};

/** Relative weights: process kills and 503 storms are the faults that lose or double money. */
const WEIGHTS: readonly [StreamKind, number][] = [
  ['kill-bff', 3],
  ['kill-sandbox', 2],
  ['upstream-503', 3],
  ['latency', 2],
  ['duplicate-events', 2],
  ['drop-upstream-socket', 2],
  ['clock-step', 2],
  ['drop-browser-socket', 2],
  ['stall-browser-socket', 1],
  ['slow-browser-socket', 1],
  ['disk-full', 1],
];
/** Replicas: kills weigh more (either replica, and the leader), PostgreSQL instead of disk-full. */
const REPLICA_WEIGHTS: readonly [StreamKind, number][] = [
  ...WEIGHTS.filter(([kind]) => kind !== 'disk-full' && kind !== 'kill-bff'),
  ['kill-bff', 4],
  ['pg-terminate', 2],
];

const totalOf = (weights: readonly [StreamKind, number][]) =>
  weights.reduce((sum, [, weight]) => sum + weight, 0);

function kindOf(rng: Rng, weights: readonly [StreamKind, number][]): StreamKind {
  let at = rng() * totalOf(weights);
  for (const [kind, weight] of weights) {
    at -= weight;
    if (at < 0) return kind;
  }
  return 'kill-bff';
}

/** Which replica a kill or a freeze hits: one by index, or -1 for the leader. */
function replicaOf(rng: Rng, replicas: number): ReplicaTarget {
  const target = intBetween(rng, -1, replicas - 1);
  return target === -1 ? 'leader' : target;
}

function faultOf(kind: StreamKind, rng: Rng, replicas: number): Fault {
  const fault = singleFaultOf(kind, rng);
  if (replicas <= 1) return fault;
  // Drawn after the single-BFF parameters, so those keep their meaning per seed.
  if (fault.kind === 'kill-bff') return { ...fault, replica: replicaOf(rng, replicas) };
  if (fault.kind === 'clock-step' && fault.target === 'bff') {
    return { ...fault, replica: intBetween(rng, 0, replicas - 1) };
  }
  return fault;
}

/**
 * Replicas: what each long-enough run holds beyond one fault of each kind, so the short run
 * kills the leader itself and cuts both the leader's lock and every connection.
 */
const REPLICA_MUSTS: readonly { has: (f: Fault) => boolean; make: (rng: Rng) => Fault }[] = [
  {
    has: (f) => f.kind === 'kill-bff' && f.replica === 'leader',
    make: (rng) => ({ kind: 'kill-bff', downMs: intBetween(rng, 0, 2_000), replica: 'leader' }),
  },
  {
    has: (f) => f.kind === 'pg-terminate' && f.target === 'leader-lock',
    make: () => ({ kind: 'pg-terminate', target: 'leader-lock' }),
  },
  {
    has: (f) => f.kind === 'pg-terminate' && f.target === 'all',
    make: () => ({ kind: 'pg-terminate', target: 'all' }),
  },
];

function singleFaultOf(kind: StreamKind, rng: Rng): Fault {
  const window = () => intBetween(rng, 1_000, 6_000);
  const socket = () => intBetween(rng, 0, BROWSER_SOCKETS - 1);
  switch (kind) {
    case 'kill-bff':
      return { kind, downMs: intBetween(rng, 0, 2_000) };
    case 'kill-sandbox':
      return { kind, downMs: intBetween(rng, 0, 2_000) };
    case 'upstream-503':
      return { kind, rate: pick(rng, [0.3, 0.6, 1]), durationMs: window() };
    case 'latency':
      return { kind, latencyMs: intBetween(rng, 50, 1_500), durationMs: window() };
    case 'duplicate-events':
      return { kind, rate: pick(rng, [0.2, 0.5, 1]), durationMs: window() };
    case 'drop-upstream-socket':
      return { kind, everyMs: intBetween(rng, 300, 2_000), durationMs: window() };
    case 'clock-step':
      return {
        kind,
        target: pick(rng, ['bff', 'sandbox'] as const),
        offsetMs: intBetween(rng, -MAX_CLOCK_STEP_MS, MAX_CLOCK_STEP_MS),
      };
    case 'drop-browser-socket':
      return { kind, socket: socket() };
    case 'stall-browser-socket':
      return { kind, socket: socket(), durationMs: window() };
    case 'slow-browser-socket':
      return { kind, socket: socket(), durationMs: window() };
    case 'disk-full':
      return { kind, durationMs: intBetween(rng, 500, 3_000) };
    case 'pg-terminate':
      return { kind, target: pick(rng, ['leader-lock', 'all'] as const) };
  }
}

/**
 * Freezes come from a stream of their own (the seed mixed with this), merged in by time: the
 * seed's first stream draws exactly what it drew before freezes existed, so every seed keeps
 * its earlier faults at their offsets.
 */
const FREEZE_STREAM = 0x0f2e_e2e5;

/** Under two upstream attempts: a call waits, and is answered once the process resumes. */
const shortFreeze = (rng: Rng) => intBetween(rng, 2_000, 8_000);
/** Past the BFF's upstream budget: it must give up and answer a retryable 503 itself. */
const longFreeze = (rng: Rng) =>
  intBetween(rng, UPSTREAM_BUDGET_MS + 1_000, UPSTREAM_BUDGET_MS + 4_000);

function freezeOf(kind: FreezeKind, rng: Rng, replicas: number): FreezeFault {
  if (kind === 'freeze-sandbox') {
    return { kind, durationMs: rng() < 0.25 ? longFreeze(rng) : shortFreeze(rng) };
  }
  const fault: FreezeFault = { kind, durationMs: shortFreeze(rng) };
  return replicas > 1 ? { ...fault, replica: replicaOf(rng, replicas) } : fault;
}

/**
 * What every long-enough run holds: a sandbox freeze past the budget, then a BFF freeze (the
 * leader with replicas: it holds the upstream stream and the election lock meanwhile).
 */
function mustFreezes(rng: Rng, replicas: number): FreezeFault[] {
  const sandbox: FreezeFault = { kind: 'freeze-sandbox', durationMs: longFreeze(rng) };
  const bff: FreezeFault = { kind: 'freeze-bff', durationMs: shortFreeze(rng) };
  return [sandbox, replicas > 1 ? { ...bff, replica: 'leader' } : bff];
}

type PlacedFreeze = { atMs: number; fault: FreezeFault };

const overlaps = (a: PlacedFreeze, b: PlacedFreeze) =>
  a.atMs < b.atMs + b.fault.durationMs && b.atMs < a.atMs + a.fault.durationMs;

/**
 * One freeze at a time, so a sandbox freeze is not hidden behind a BFF one (a frozen BFF
 * answers nothing, whatever the sandbox does): at exponential gaps, ten times the other faults'
 * mean gap, after the previous one ended. The freezes every long-enough run must hold come
 * back to back, 1 s apart, ending before the workload does (so the actors meet them), and the
 * drawn ones they overlap give way.
 */
function buildFreezes(input: ScheduleInput, replicas: number, isLongEnough: boolean) {
  const rng = createRng(input.seed ^ FREEZE_STREAM);
  const drawn: PlacedFreeze[] = [];
  let at = intBetween(rng, 2_000, 8_000);
  while (at < input.durationMs) {
    const kind = rng() < 0.5 ? 'freeze-sandbox' : 'freeze-bff';
    const fault = freezeOf(kind, rng, replicas);
    drawn.push({ atMs: at, fault });
    const gap = Math.max(1_000, Math.round(-Math.log(1 - rng()) * input.meanGapMs * 10));
    at += fault.durationMs + gap;
  }
  if (!isLongEnough) return drawn;
  const musts = mustFreezes(rng, replicas);
  const span = musts.reduce((sum, fault) => sum + fault.durationMs + 1_000, 0);
  let next = intBetween(rng, 500, Math.max(500, input.durationMs - span));
  const placed = musts.map((fault) => {
    const item = { atMs: Math.min(next, input.durationMs - 1), fault };
    next += fault.durationMs + 1_000;
    return item;
  });
  return [...drawn.filter((item) => !placed.some((must) => overlaps(must, item))), ...placed];
}

/**
 * Faults at exponentially distributed gaps over [0, durationMs), in time order. Every kind
 * appears at least once when the run is long enough to hold one of each (so the short run
 * in `npm test` still tries them all), placed by the same seeded stream; freezes by their own.
 */
export function buildSchedule(input: ScheduleInput): ScheduledFault[] {
  const replicas = input.replicas ?? 1;
  const weights = replicas > 1 ? REPLICA_WEIGHTS : WEIGHTS;
  const isLongEnough = input.durationMs >= weights.length * 1_000;
  const rng = createRng(input.seed);
  const out: ScheduledFault[] = [];
  let at = intBetween(rng, 500, 2_000);
  while (at < input.durationMs) {
    const kind = kindOf(rng, weights);
    out.push({ atMs: at, fault: faultOf(kind, rng, replicas) });
    at += Math.max(200, Math.round(-Math.log(1 - rng()) * input.meanGapMs));
  }
  const seen = new Set(out.map((item) => item.fault.kind));
  if (isLongEnough) {
    for (const [kind] of weights) {
      if (seen.has(kind)) continue;
      out.push({
        atMs: intBetween(rng, 500, input.durationMs - 1),
        fault: faultOf(kind, rng, replicas),
      });
    }
    for (const must of replicas > 1 ? REPLICA_MUSTS : []) {
      if (out.some((item) => must.has(item.fault))) continue;
      out.push({ atMs: intBetween(rng, 500, input.durationMs - 1), fault: must.make(rng) });
    }
  }
  // Stable: at one offset, the first stream's fault comes first, as it did.
  return [...out, ...buildFreezes(input, replicas, isLongEnough)].sort((x, y) => x.atMs - y.atMs);
}

/** One line per fault, for the failure report (and for diffing two runs of one seed). */
export function describeSchedule(schedule: readonly ScheduledFault[]): string {
  return schedule
    .map(({ atMs, fault }) => {
      const { kind, ...rest } = fault;
      const params = Object.entries(rest)
        .map(([key, value]) => `${key}=${String(value)}`)
        .join(' ');
      return `  +${(atMs / 1000).toFixed(3).padStart(8)} s  ${kind}${params ? ` ${params}` : ''}`;
    })
    .join('\n');
}
