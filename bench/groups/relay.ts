import { join } from 'node:path';
import { startFakeUpstream, type FakeUpstream, type UpstreamKind } from '../lib/fake-upstream';
import { freePort, sleep, spawnTs, waitForHttp, type Child } from '../lib/procs';
import { openReceivers, openStalledSocket } from '../lib/receivers';
import { median, percentile, type GroupRecorder } from '../lib/report';
import { startStallProbe } from '../lib/stall-probe';
import { startBff, startSandbox } from '../lib/stack';
import type { BenchContext } from '../run';

/**
 * Group 3: upstream events -> N browser sockets, through the BFF relay (normalize, dedupe,
 * persist, serialize once, fan out with bounded buffers) and, as the reference, through the
 * fastest fan-out `ws` allows (its own process). Both read the same fake upstream (this process), which
 * sends topic-envelope `transaction.updated` events at a fixed rate and skips the signature
 * check of the handshake. Latency = fake upstream send -> browser socket receive.
 */

type RunResult = {
  sent: number;
  delivered: number;
  deliveredPerS: number;
  p50: number | null;
  p99: number | null;
  rss: number[];
  closedCodes: number[];
  /** CPU time of the server process per event sent, in microseconds (steadier than latency on
   * a shared machine: it does not depend on who else got the cores). */
  cpuUsPerEvent: number | null;
};

async function waitUntil(probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!probe() && performance.now() < deadline) await sleep(20);
}

async function fanOutRun(input: {
  fake: FakeUpstream;
  kind: UpstreamKind;
  url: string;
  headers: Record<string, string>;
  sockets: number;
  rate: number;
  durationMs: number;
  server: Child;
  isStalledSocketAdded?: boolean;
}): Promise<
  RunResult & { stalled: { isClosedByServer: boolean; closeCode: number | null } | null }
> {
  const { fake } = input;
  const expected = Math.floor((input.rate * input.durationMs) / 1000) * input.sockets;
  const receivers = await openReceivers({
    url: input.url,
    count: input.sockets,
    headers: input.headers,
    idPrefix: fake.idPrefix,
    sentAt: fake.sentAt,
    maxSamples: Math.min(expected, 4_000_000),
  });
  const stalled = input.isStalledSocketAdded
    ? await openStalledSocket(input.url, input.headers)
    : null;
  await sleep(300);
  const rss: number[] = [];
  const sampler = setInterval(() => {
    const value = input.server.rssMb();
    if (value !== null) rss.push(value);
  }, 1_000);
  const started = performance.now();
  const cpuBefore = input.server.cpuMs();
  const sent = await fake.emit(input.kind, input.rate, input.durationMs);
  await waitUntil(() => receivers.delivered() >= sent * input.sockets, 3_000);
  const cpuAfter = input.server.cpuMs();
  clearInterval(sampler);
  const elapsedS = (Math.max(receivers.lastReceivedAt(), started + 1) - started) / 1000;
  const samples = Array.from(receivers.latencies());
  const stalledResult = stalled ? await stalled.finish() : null;
  const closedCodes = [...receivers.closedCodes()];
  receivers.close();
  await sleep(200);
  return {
    sent,
    delivered: receivers.delivered(),
    deliveredPerS: receivers.delivered() / elapsedS,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    rss,
    closedCodes,
    cpuUsPerEvent:
      cpuBefore === null || cpuAfter === null || sent === 0
        ? null
        : ((cpuAfter - cpuBefore) * 1000) / sent,
    stalled: stalledResult,
  };
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The load per size: the issue's targets are set at these rates. */
const LOADS: { sockets: number; rate: number; p99TargetMs: number | null }[] = [
  { sockets: 10, rate: 1_000, p99TargetMs: null },
  { sockets: 100, rate: 1_000, p99TargetMs: 20 },
  { sockets: 500, rate: 200, p99TargetMs: 60 },
  { sockets: 1_000, rate: 100, p99TargetMs: null },
];
/** The BFF's p99 may be at most this multiple of the fastest fan-out's, at every size. */
const REFERENCE_RATIO = 1.2;

export async function runRelay(ctx: BenchContext, rec: GroupRecorder): Promise<void> {
  const durationMs = ctx.isQuick ? 1_000 : 5_000;
  const rounds = ctx.isQuick ? 1 : 3;
  const soakMs = ctx.isQuick ? 2_000 : 300_000;
  const loads = ctx.isQuick ? LOADS.slice(0, 2) : LOADS;
  const fake = await startFakeUpstream();
  let reference: Child | null = null;
  try {
    // The reference needs only the fake upstream: it starts while the sandbox and the BFF do.
    const referencePort = await freePort();
    reference = spawnTs({
      name: 'fastest-fanout',
      script: 'bench/servers/fastest-fanout.ts',
      env: { PORT: String(referencePort), UPSTREAM_WS_URL: fake.wsUrl },
      logFile: join(ctx.workDir, 'fastest-fanout.log'),
    });
    const sandbox = await startSandbox(ctx.workDir, { blockMs: 1000, name: 'relay-sandbox' });
    const bff = await startBff(ctx.workDir, sandbox, {
      name: 'relay-bff',
      upstreamWsUrl: fake.wsUrl,
      onSeeded: ({ credentials }) => {
        fake.setOrgId(credentials.orgId);
      },
    });
    const session = await bff.login('support');
    await waitForHttp(`http://127.0.0.1:${referencePort}/`, 'fastest fan-out');
    await waitUntil(() => fake.connections('bff') > 0 && fake.connections('reference') > 0, 10_000);
    if (fake.connections('bff') === 0) throw new Error('the BFF relay did not connect upstream');

    const bffTarget = {
      kind: 'bff' as const,
      url: `${bff.url.replace('http:', 'ws:')}/bff/events`,
      headers: { cookie: session.cookie, origin: bff.url },
      server: bff.child,
    };
    const referenceTarget = {
      kind: 'reference' as const,
      url: `ws://127.0.0.1:${referencePort}/`,
      headers: {},
      server: reference,
    };
    // Warm-up of both paths (JIT, SQLite): not recorded.
    for (const target of [bffTarget, referenceTarget]) {
      await fanOutRun({
        fake,
        ...target,
        sockets: 10,
        rate: 500,
        durationMs: ctx.isQuick ? 500 : 1_000,
      });
    }

    // Which rounds the machine stalled in (see stall-probe.ts).
    const probe = startStallProbe(join(ctx.workDir, 'relay-stall-probe.log'));
    const curve: { sockets: number; bff: number | null; reference: number | null }[] = [];
    let p99At10: number | null = null;
    for (const { sockets, rate, p99TargetMs } of loads) {
      // Interleaved rounds, so a burst of other work on the machine hits both sides alike.
      const viaBff: Awaited<ReturnType<typeof fanOutRun>>[] = [];
      const viaReference: Awaited<ReturnType<typeof fanOutRun>>[] = [];
      for (let round = 0; round < rounds; round += 1) {
        viaBff.push(
          await probe.timed(`bff ${sockets}`, () =>
            fanOutRun({ fake, ...bffTarget, sockets, rate, durationMs }),
          ),
        );
        viaReference.push(
          await probe.timed(`reference ${sockets}`, () =>
            fanOutRun({ fake, ...referenceTarget, sockets, rate, durationMs }),
          ),
        );
      }
      await probe.settle();
      const med = (runs: typeof viaBff, f: (r: (typeof viaBff)[number]) => number | null) =>
        median(runs.flatMap((r) => (f(r) === null ? [] : [f(r) as number])));
      const label = `${rate} ev/s -> ${sockets} sockets`;
      const lost = viaBff.reduce((sum, r) => sum + (r.sent * sockets - r.delivered), 0);
      const offered = viaBff.reduce((sum, r) => sum + r.sent * sockets, 0);
      const isComplete = lost === 0;
      const bffP99 = med(viaBff, (r) => r.p99);
      const referenceP99 = med(viaReference, (r) => r.p99);
      if (sockets === 10) p99At10 = bffP99;
      curve.push({ sockets, bff: bffP99, reference: referenceP99 });
      rec.add({
        metric: `${label}: delivered via BFF`,
        value: offered - lost,
        unit: 'msgs',
        reference: { name: 'offered', value: offered },
        ...(sockets === 1_000
          ? { target: 'every event delivered (1,000 sockets, 100 ev/s)', isMet: isComplete }
          : {}),
        note: `medians of ${rounds} run(s) of ${durationMs / 1000} s; delivered/s via BFF ${med(viaBff, (r) => r.deliveredPerS)?.toFixed(0) ?? '-'}, via the fastest fan-out ${med(viaReference, (r) => r.deliveredPerS)?.toFixed(0) ?? '-'}; BFF sockets closed early: ${viaBff.reduce((sum, r) => sum + r.closedCodes.length, 0)}`,
      });
      rec.add({
        metric: `${label}: p50 latency via BFF`,
        value: med(viaBff, (r) => r.p50),
        unit: 'ms',
        reference: { name: 'fastest ws', value: med(viaReference, (r) => r.p50) },
      });
      const roundsOf = (runs: typeof viaBff) =>
        runs.map((r) => (r.p99 === null ? '-' : r.p99.toFixed(1))).join(' / ');
      rec.add({
        metric: `${label}: p99 latency via BFF`,
        value: bffP99,
        unit: 'ms',
        reference: { name: 'fastest ws', value: referenceP99 },
        // Every round, in order: one disturbed round shows beside the median it moved.
        note: `each round, in order: BFF ${roundsOf(viaBff)} ms, fastest ws ${roundsOf(viaReference)} ms; the machine's stalls (a probe process that only wakes every ms, late by more than 8 ms) in each round, BFF: ${probe.roundsText(`bff ${sockets}`)}; fastest ws: ${probe.roundsText(`reference ${sockets}`)}`,
        target:
          p99TargetMs === null
            ? `<= ${REFERENCE_RATIO}x the fastest fan-out`
            : `<= ${p99TargetMs} ms and <= ${REFERENCE_RATIO}x the fastest fan-out`,
        isMet:
          bffP99 !== null &&
          referenceP99 !== null &&
          isComplete &&
          bffP99 <= REFERENCE_RATIO * referenceP99 &&
          (p99TargetMs === null || bffP99 <= p99TargetMs),
      });
      rec.add({
        metric: `${label}: CPU per event, BFF process`,
        value: med(viaBff, (r) => r.cpuUsPerEvent),
        unit: 'us',
        reference: { name: 'fastest ws', value: med(viaReference, (r) => r.cpuUsPerEvent) },
      });
      rec.add({
        metric: `${label}: RSS during run, BFF`,
        value: Math.max(...viaBff.flatMap((r) => r.rss), 0),
        unit: 'MiB',
        reference: {
          name: 'fastest ws',
          value: Math.max(...viaReference.flatMap((r) => r.rss), 0),
        },
      });
    }
    await probe.child.stop();
    rec.chart({
      id: 'relay-p99-by-sockets',
      title: 'Relay p99 latency as browser sockets grow',
      xLabel: 'browser sockets (1,000 ev/s to 10 and 100; 200 to 500; 100 to 1,000)',
      yLabel: 'p99 latency, ms',
      isLogX: true,
      series: [
        { name: 'BFF relay', points: curve.map((c) => ({ x: c.sockets, y: c.bff })) },
        {
          name: 'fastest ws',
          isReference: true,
          points: curve.map((c) => ({ x: c.sockets, y: c.reference })),
        },
      ],
    });

    // A stalled browser socket (never reads) beside 10 healthy ones, long enough for the
    // kernel buffers and the BFF's 1 MiB per-socket bound to fill: it must be cut, the others
    // must not be slowed.
    const stallMs = ctx.isQuick ? 4_000 : 12_000;
    const withStall = await fanOutRun({
      fake,
      ...bffTarget,
      sockets: 10,
      rate: 1_000,
      durationMs: stallMs,
      isStalledSocketAdded: true,
    });
    rec.add({
      metric: `p99 of 10 sockets beside a stalled one (${stallMs / 1000} s), BFF`,
      value: withStall.p99,
      unit: 'ms',
      reference: { name: 'BFF, 10 sockets, no stalled one', value: p99At10 },
      target: 'others not slowed; stalled socket closed',
      isMet:
        withStall.stalled?.isClosedByServer === true &&
        withStall.p99 !== null &&
        p99At10 !== null &&
        withStall.p99 <= Math.max(25, 2 * p99At10) &&
        withStall.delivered >= withStall.sent * 10,
      note: `stalled socket closed by the BFF: ${String(withStall.stalled?.isClosedByServer)} (close code ${String(withStall.stalled?.closeCode ?? 'none seen')}); healthy sockets got ${withStall.delivered} of ${withStall.sent * 10}`,
    });

    // Memory over a longer run at the target load.
    const soak = await fanOutRun({
      fake,
      ...bffTarget,
      sockets: 100,
      rate: 1_000,
      durationMs: soakMs,
    });
    const quarter = Math.max(1, Math.floor(soak.rss.length / 4));
    const early = mean(soak.rss.slice(quarter, 2 * quarter));
    const late = mean(soak.rss.slice(-quarter));
    const growth = early !== null && late !== null ? (late - early) / early : null;
    rec.add({
      metric: `BFF RSS over ${soakMs / 1000} s at 1,000 ev/s -> 100 sockets (last quarter)`,
      value: late,
      unit: 'MiB',
      reference: { name: 'second quarter', value: early },
      target: 'flat (< 10% growth)',
      isMet: growth !== null && growth < 0.1,
      note: `samples (MiB, 1/s): ${soak.rss.map((v) => v.toFixed(0)).join(' ')}; p99 ${soak.p99?.toFixed(1) ?? '-'} ms; delivered ${soak.delivered} of ${soak.sent * 100}`,
    });
    rec.chart({
      id: 'relay-rss-soak',
      title: `BFF memory over ${soakMs / 60_000} minutes at 1,000 ev/s to 100 sockets`,
      xLabel: 'seconds',
      yLabel: 'RSS, MiB',
      series: [{ name: 'BFF RSS', points: soak.rss.map((y, i) => ({ x: i + 1, y })) }],
    });
    rec.note(
      'Upstream events come from a fake upstream in the bench process (topic envelope, transaction.updated, ~900 B; signature of the handshake NOT checked). Receivers (ws clients) also run in the bench process, so at high delivery rates all three processes compete for the 2 cores. The reference is the fastest fan-out ws allows (bench/servers/fastest-fanout.ts: each event framed once, one corked write per socket per tick, no store).',
    );
  } finally {
    await reference?.stop();
    await fake.close();
  }
}
