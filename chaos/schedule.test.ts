import { describe, expect, it } from 'vitest';
import {
  BROWSER_SOCKETS,
  MAX_CLOCK_STEP_MS,
  buildSchedule,
  createRng,
  describeSchedule,
  type FaultKind,
} from './schedule';

const ALL_KINDS: FaultKind[] = [
  'kill-bff',
  'kill-sandbox',
  'upstream-503',
  'latency',
  'duplicate-events',
  'drop-upstream-socket',
  'clock-step',
  'drop-browser-socket',
  'stall-browser-socket',
  'slow-browser-socket',
  'disk-full',
];

describe('createRng', () => {
  it('gives the same stream for the same seed and another for another seed', () => {
    const take = (seed: number) => {
      const rng = createRng(seed);
      return Array.from({ length: 5 }, () => rng());
    };
    expect(take(7)).toEqual(take(7));
    expect(take(7)).not.toEqual(take(8));
    for (const value of take(20261124)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });
});

describe('buildSchedule', () => {
  const input = { seed: 20261124, durationMs: 45_000, meanGapMs: 2_500 };

  it('is a pure function of its input: one seed, one schedule, byte for byte', () => {
    const first = buildSchedule(input);
    expect(buildSchedule({ ...input })).toEqual(first);
    expect(describeSchedule(buildSchedule(input))).toBe(describeSchedule(first));
    expect(buildSchedule({ ...input, seed: 20261125 })).not.toEqual(first);
  });

  it('keeps the fixed seed of npm run test:chaos stable (a changed generator changes the short run)', () => {
    const schedule = buildSchedule(input);
    expect(schedule).toHaveLength(21);
    expect(schedule[0]).toEqual({
      atMs: 676,
      fault: { kind: 'latency', latencyMs: 288, durationMs: 5851 },
    });
  });

  it('puts every fault kind in a run long enough to hold them all, in time order, inside the run', () => {
    for (const seed of [1, 2, 3, 20261124, 0xffffffff]) {
      const schedule = buildSchedule({ ...input, seed });
      expect(new Set(schedule.map((item) => item.fault.kind))).toEqual(new Set(ALL_KINDS));
      const times = schedule.map((item) => item.atMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      for (const { atMs, fault } of schedule) {
        expect(atMs).toBeGreaterThanOrEqual(0);
        expect(atMs).toBeLessThan(input.durationMs);
        if (fault.kind === 'clock-step') {
          expect(Math.abs(fault.offsetMs)).toBeLessThanOrEqual(MAX_CLOCK_STEP_MS);
        }
        if ('socket' in fault) expect(fault.socket).toBeLessThan(BROWSER_SOCKETS);
      }
    }
  });

  it('gives one BFF the schedule it had before replicas existed, draw for draw', () => {
    expect(buildSchedule({ ...input, replicas: 1 })).toEqual(buildSchedule(input));
    for (const { fault } of buildSchedule(input)) {
      expect(fault).not.toHaveProperty('replica');
      expect(fault.kind).not.toBe('pg-terminate');
    }
  });

  it('prints one line per fault with its offset and parameters', () => {
    const text = describeSchedule([
      { atMs: 1_500, fault: { kind: 'kill-bff', downMs: 200 } },
      { atMs: 12_000, fault: { kind: 'clock-step', target: 'sandbox', offsetMs: -5_000 } },
    ]);
    expect(text.split('\n')).toEqual([
      '  +   1.500 s  kill-bff downMs=200',
      '  +  12.000 s  clock-step target=sandbox offsetMs=-5000',
    ]);
  });
});

describe('buildSchedule with BFF replicas', () => {
  const input = { seed: 20261124, durationMs: 45_000, meanGapMs: 2_500, replicas: 2 };
  const REPLICA_KINDS = [...ALL_KINDS.filter((kind) => kind !== 'disk-full'), 'pg-terminate'];

  it('is a pure function of its input, apart from the single-BFF schedule of the seed', () => {
    const first = buildSchedule(input);
    expect(buildSchedule({ ...input })).toEqual(first);
    expect(buildSchedule({ ...input, seed: 20261125 })).not.toEqual(first);
    expect(buildSchedule({ ...input, replicas: 1 })).not.toEqual(first);
  });

  it('keeps the fixed seed of the replicas short run stable', () => {
    const schedule = buildSchedule(input);
    expect(schedule).toHaveLength(23);
    expect(schedule[0]).toEqual({
      atMs: 676,
      fault: { kind: 'drop-upstream-socket', everyMs: 579, durationMs: 5851 },
    });
  });

  it('kills the leader and either replica, cuts PostgreSQL connections, never fills a disk', () => {
    for (const seed of [1, 2, 3, 20261124, 0xffffffff]) {
      const schedule = buildSchedule({ ...input, seed });
      const faults = schedule.map((item) => item.fault);
      expect(new Set(faults.map((fault) => fault.kind))).toEqual(new Set(REPLICA_KINDS));
      expect(faults).toContainEqual(
        expect.objectContaining({ kind: 'kill-bff', replica: 'leader' }),
      );
      expect(faults).toContainEqual({ kind: 'pg-terminate', target: 'all' });
      expect(faults).toContainEqual({ kind: 'pg-terminate', target: 'leader-lock' });
      const times = schedule.map((item) => item.atMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      for (const { atMs, fault } of schedule) {
        expect(atMs).toBeLessThan(input.durationMs);
        if (fault.kind === 'kill-bff') {
          expect([0, 1, 'leader']).toContain(fault.replica);
        }
        if (fault.kind === 'clock-step') {
          expect(Math.abs(fault.offsetMs)).toBeLessThanOrEqual(MAX_CLOCK_STEP_MS);
          if (fault.target === 'bff') expect([0, 1]).toContain(fault.replica);
          else expect(fault).not.toHaveProperty('replica');
        }
      }
    }
  });
});
