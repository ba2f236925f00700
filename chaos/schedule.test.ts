import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BROWSER_SOCKETS,
  MAX_CLOCK_STEP_MS,
  UPSTREAM_BUDGET_MS,
  buildSchedule,
  createRng,
  describeSchedule,
  type FaultKind,
  type ScheduledFault,
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
  'freeze-sandbox',
  'freeze-bff',
];

const isFreeze = (item: ScheduledFault) =>
  item.fault.kind === 'freeze-sandbox' || item.fault.kind === 'freeze-bff';
/** The faults of the seed's first stream, one line each: all there was before freezes. */
const earlierFaults = (schedule: ScheduledFault[]) =>
  describeSchedule(schedule.filter((item) => !isFreeze(item)));

/** The fixed seed's short runs as the schedule gave them before freezes existed (`cfe8da2`). */
const SHORT_RUN_BEFORE_FREEZES = [
  '  +   0.676 s  latency latencyMs=288 durationMs=5851',
  '  +   1.162 s  clock-step target=bff offsetMs=117190',
  '  +   1.600 s  upstream-503 rate=0.3 durationMs=4418',
  '  +   4.190 s  slow-browser-socket socket=0 durationMs=4004',
  '  +   7.172 s  slow-browser-socket socket=2 durationMs=2230',
  '  +   9.840 s  duplicate-events rate=1 durationMs=1700',
  '  +  10.435 s  upstream-503 rate=1 durationMs=2421',
  '  +  12.283 s  drop-browser-socket socket=1',
  '  +  14.218 s  upstream-503 rate=0.6 durationMs=3598',
  '  +  15.483 s  drop-upstream-socket everyMs=1199 durationMs=4943',
  '  +  20.318 s  stall-browser-socket socket=0 durationMs=5459',
  '  +  20.648 s  upstream-503 rate=1 durationMs=5159',
  '  +  21.644 s  latency latencyMs=1298 durationMs=5423',
  '  +  21.844 s  clock-step target=bff offsetMs=-57145',
  '  +  27.631 s  drop-browser-socket socket=0',
  '  +  28.871 s  disk-full durationMs=528',
  '  +  33.146 s  latency latencyMs=250 durationMs=3171',
  '  +  35.195 s  drop-upstream-socket everyMs=1178 durationMs=2952',
  '  +  36.829 s  kill-sandbox downMs=446',
  '  +  38.766 s  drop-browser-socket socket=0',
  '  +  44.121 s  kill-bff downMs=155',
];
const REPLICAS_SHORT_RUN_BEFORE_FREEZES = [
  '  +   0.676 s  drop-upstream-socket everyMs=579 durationMs=5851',
  '  +   1.162 s  stall-browser-socket socket=0 durationMs=5942',
  '  +   1.600 s  latency latencyMs=217 durationMs=4418',
  '  +   2.693 s  drop-browser-socket socket=0',
  '  +   4.190 s  pg-terminate target=leader-lock',
  '  +   6.486 s  slow-browser-socket socket=2 durationMs=5619',
  '  +   7.192 s  slow-browser-socket socket=1 durationMs=5406',
  '  +   8.028 s  clock-step target=sandbox offsetMs=-39895',
  '  +   9.963 s  latency latencyMs=998 durationMs=3598',
  '  +  11.228 s  stall-browser-socket socket=1 durationMs=4943',
  '  +  11.951 s  pg-terminate target=all',
  '  +  16.063 s  kill-bff downMs=45 replica=1',
  '  +  16.393 s  latency latencyMs=1341 durationMs=5159',
  '  +  17.389 s  drop-upstream-socket everyMs=1764 durationMs=5423',
  '  +  17.589 s  slow-browser-socket socket=0 durationMs=2309',
  '  +  17.876 s  kill-bff downMs=1528 replica=leader',
  '  +  23.376 s  kill-bff downMs=411 replica=0',
  '  +  32.460 s  kill-sandbox downMs=1639',
  '  +  34.039 s  upstream-503 rate=0.6 durationMs=3797',
  '  +  36.698 s  clock-step target=bff offsetMs=-4854 replica=0',
  '  +  37.329 s  clock-step target=sandbox offsetMs=-96404',
  '  +  41.389 s  duplicate-events rate=0.2 durationMs=5777',
  '  +  44.694 s  pg-terminate target=leader-lock',
];
/**
 * sha256 of describeSchedule for the seeds docs/chaos.md lists (the hour run, the findings,
 * the replay example), as it was before freezes existed (`cfe8da2`).
 */
const DOCUMENTED_SEEDS = [
  {
    seed: 3898560729,
    minutes: 15,
    replicas: 1,
    digest: '062c4a3a81182d1912bc0ef6b2378b3e0ba6680be4a7b6883a1a7b3b9879b19a',
  },
  {
    seed: 2839923632,
    minutes: 15,
    replicas: 2,
    digest: '8ff408e0667d109fbbed1ab44b76e90bee3419e78bbd869fa7bd1b1c65881f29',
  },
  {
    seed: 656943994,
    minutes: 15,
    replicas: 1,
    digest: 'c889aa461e83cf65b9fd37f6c9485e9c446fbe9dc3f31fdb8217f12cc91a46f5',
  },
  {
    seed: 2955877355,
    minutes: 15,
    replicas: 2,
    digest: '8a319f94ced395156a569260158952d9ca978ae5a3aef03dcc6082378ab58d7f',
  },
  {
    seed: 835063871,
    minutes: 8,
    replicas: 2,
    digest: '67209ccada5cdc05819d4ba613a94c8fdb067827044084a65fe42a2c641d0a64',
  },
  {
    seed: 801472591,
    minutes: 10,
    replicas: 1,
    digest: 'aa51a8b97fc0186a08f842216ca2669be65db1cb52bb1b4570e1d22ebdfb46d7',
  },
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
    const schedule = buildSchedule(input).filter((item) => !isFreeze(item));
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
    const schedule = buildSchedule(input).filter((item) => !isFreeze(item));
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

describe('buildSchedule freezes', () => {
  const short = { seed: 20261124, durationMs: 45_000, meanGapMs: 2_500 };
  const seeds = [1, 2, 3, 20261124, 0xffffffff, 3898560729, 835063871];

  it('leaves every fault a seed had before freezes as it was, offsets and parameters', () => {
    expect(earlierFaults(buildSchedule(short)).split('\n')).toEqual(SHORT_RUN_BEFORE_FREEZES);
    expect(earlierFaults(buildSchedule({ ...short, replicas: 2 })).split('\n')).toEqual(
      REPLICAS_SHORT_RUN_BEFORE_FREEZES,
    );
    for (const { seed, minutes, replicas, digest } of DOCUMENTED_SEEDS) {
      const schedule = buildSchedule({
        seed,
        durationMs: minutes * 60_000,
        meanGapMs: 4_000,
        ...(replicas > 1 ? { replicas } : {}),
      });
      const text = earlierFaults(schedule);
      expect(createHash('sha256').update(text).digest('hex'), `seed ${seed}`).toBe(digest);
    }
  });

  it('draws the same freezes for the same seed and length, others for another seed', () => {
    const freezes = (seed: number) => buildSchedule({ ...short, seed }).filter(isFreeze);
    expect(freezes(20261124)).toEqual(freezes(20261124));
    expect(freezes(20261124)).not.toEqual(freezes(20261125));
  });

  it('freezes the sandbox past the upstream budget and a BFF (the leader with replicas) in every run long enough', () => {
    for (const seed of seeds) {
      for (const replicas of [1, 2]) {
        for (const [durationMs, meanGapMs] of [
          [45_000, 2_500],
          [4 * 60_000, 4_000],
        ] as const) {
          const faults = buildSchedule({ seed, durationMs, meanGapMs, replicas })
            .filter(isFreeze)
            .map((item) => item.fault);
          const why = `seed ${seed}, ${replicas} BFF, ${durationMs} ms`;
          expect(
            faults.some((f) => f.kind === 'freeze-sandbox' && f.durationMs > UPSTREAM_BUDGET_MS),
            why,
          ).toBe(true);
          expect(faults, why).toContainEqual(
            replicas > 1
              ? expect.objectContaining({ kind: 'freeze-bff', replica: 'leader' })
              : expect.objectContaining({ kind: 'freeze-bff' }),
          );
        }
      }
    }
  });

  it('keeps one freeze at a time, each 2 s or more, a BFF one at most 8 s, a sandbox one at most the budget plus 4 s', () => {
    const durationMs = 10 * 60_000;
    for (const seed of seeds) {
      for (const replicas of [1, 3]) {
        const schedule = buildSchedule({ seed, durationMs, meanGapMs: 4_000, replicas });
        const times = schedule.map((item) => item.atMs);
        expect(times).toEqual([...times].sort((a, b) => a - b));
        const freezes = schedule.filter(isFreeze);
        freezes.forEach((item, index) => {
          const next = freezes[index + 1];
          const ends = 'durationMs' in item.fault ? item.atMs + item.fault.durationMs : item.atMs;
          if (next) expect(next.atMs, `seed ${seed}: one freeze at a time`).toBeGreaterThan(ends);
        });
        for (const { atMs, fault } of freezes) {
          expect(atMs).toBeGreaterThanOrEqual(500);
          expect(atMs).toBeLessThan(durationMs);
          if (fault.kind !== 'freeze-sandbox' && fault.kind !== 'freeze-bff') continue;
          expect(fault.durationMs).toBeGreaterThanOrEqual(2_000);
          expect(fault.durationMs).toBeLessThanOrEqual(
            fault.kind === 'freeze-bff' ? 8_000 : UPSTREAM_BUDGET_MS + 4_000,
          );
          if (fault.kind === 'freeze-bff' && replicas > 1) {
            expect([0, 1, 2, 'leader']).toContain(fault.replica);
          } else {
            expect(fault).not.toHaveProperty('replica');
          }
        }
      }
    }
  });

  it('holds no freeze in a 1.5 s run (the first one is 2 s in at the earliest)', () => {
    expect(buildSchedule({ ...short, durationMs: 1_500 }).filter(isFreeze)).toEqual([]);
  });
});
