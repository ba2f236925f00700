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
  | { kind: 'pg-terminate'; target: 'leader-lock' | 'all' };

export type FaultKind = Fault['kind'];
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
const WEIGHTS: readonly [FaultKind, number][] = [
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
const REPLICA_WEIGHTS: readonly [FaultKind, number][] = [
  ...WEIGHTS.filter(([kind]) => kind !== 'disk-full' && kind !== 'kill-bff'),
  ['kill-bff', 4],
  ['pg-terminate', 2],
];

const totalOf = (weights: readonly [FaultKind, number][]) =>
  weights.reduce((sum, [, weight]) => sum + weight, 0);

function kindOf(rng: Rng, weights: readonly [FaultKind, number][]): FaultKind {
  let at = rng() * totalOf(weights);
  for (const [kind, weight] of weights) {
    at -= weight;
    if (at < 0) return kind;
  }
  return 'kill-bff';
}

function faultOf(kind: FaultKind, rng: Rng, replicas: number): Fault {
  const fault = singleFaultOf(kind, rng);
  if (replicas <= 1) return fault;
  // Drawn after the single-BFF parameters, so those keep their meaning per seed.
  if (fault.kind === 'kill-bff') {
    const target = intBetween(rng, -1, replicas - 1);
    return { ...fault, replica: target === -1 ? 'leader' : target };
  }
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

function singleFaultOf(kind: FaultKind, rng: Rng): Fault {
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
 * Faults at exponentially distributed gaps over [0, durationMs), in time order. Every kind
 * appears at least once when the run is long enough to hold one of each (so the short run
 * in `npm test` still tries them all), placed by the same seeded stream.
 */
export function buildSchedule(input: ScheduleInput): ScheduledFault[] {
  const replicas = input.replicas ?? 1;
  const weights = replicas > 1 ? REPLICA_WEIGHTS : WEIGHTS;
  const rng = createRng(input.seed);
  const out: ScheduledFault[] = [];
  let at = intBetween(rng, 500, 2_000);
  while (at < input.durationMs) {
    const kind = kindOf(rng, weights);
    out.push({ atMs: at, fault: faultOf(kind, rng, replicas) });
    at += Math.max(200, Math.round(-Math.log(1 - rng()) * input.meanGapMs));
  }
  const seen = new Set(out.map((item) => item.fault.kind));
  if (input.durationMs >= weights.length * 1_000) {
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
  return out.sort((x, y) => x.atMs - y.atMs);
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
