import { join } from 'node:path';
import { startFakeUpstream, type FakeUpstream, type UpstreamKind } from '../lib/fake-upstream';
import { freePort, sleep, spawnTs, waitForHttp, type Child } from '../lib/procs';
import { openReceivers, openStalledSocket } from '../lib/receivers';
import { percentile, type GroupRecorder } from '../lib/report';
import { startBff, startSandbox } from '../lib/stack';
import type { BenchContext } from '../run';

/**
 * Group 3: upstream events -> N browser sockets, through the BFF relay (normalize, dedupe,
 * persist in SQLite, serialize once, fan out with bounded buffers) and, as the reference,
 * through a bare `ws` fan-out process. Both read the same fake upstream (this process), which
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
  const sent = await fake.emit(input.kind, input.rate, input.durationMs);
  await waitUntil(() => receivers.delivered() >= sent * input.sockets, 3_000);
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
    stalled: stalledResult,
  };
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

export async function runRelay(ctx: BenchContext, rec: GroupRecorder): Promise<void> {
  const durationMs = ctx.isQuick ? 2_000 : 8_000;
  const soakMs = ctx.isQuick ? 4_000 : 60_000;
  const socketCounts = ctx.isQuick ? [10, 100] : [10, 100, 500];
  const fake = await startFakeUpstream();
  let bare: Child | null = null;
  try {
    const sandbox = await startSandbox(ctx.workDir, { blockMs: 1000, name: 'relay-sandbox' });
    const bff = await startBff(ctx.workDir, sandbox, {
      name: 'relay-bff',
      upstreamWsUrl: fake.wsUrl,
      onSeeded: (credentials) => {
        fake.setOrgId(credentials.orgId);
      },
    });
    const session = await bff.login('support');
    const barePort = await freePort();
    bare = spawnTs({
      name: 'bare-fanout',
      script: 'bench/servers/bare-fanout.ts',
      env: { PORT: String(barePort), UPSTREAM_WS_URL: fake.wsUrl },
      logFile: join(ctx.workDir, 'bare-fanout.log'),
    });
    await waitForHttp(`http://127.0.0.1:${barePort}/`, 'bare fan-out');
    await waitUntil(() => fake.connections('bff') > 0 && fake.connections('bare') > 0, 10_000);
    if (fake.connections('bff') === 0) throw new Error('the BFF relay did not connect upstream');

    const bffTarget = {
      kind: 'bff' as const,
      url: `${bff.url.replace('http:', 'ws:')}/bff/events`,
      headers: { cookie: session.cookie, origin: bff.url },
      server: bff.child,
    };
    const bareTarget = {
      kind: 'bare' as const,
      url: `ws://127.0.0.1:${barePort}/`,
      headers: {},
      server: bare,
    };
    // Warm-up of both paths (JIT, SQLite): not recorded.
    for (const target of [bffTarget, bareTarget]) {
      await fanOutRun({
        fake,
        ...target,
        sockets: 10,
        rate: 500,
        durationMs: ctx.isQuick ? 500 : 1_000,
      });
    }

    let p99At10: number | null = null;
    for (const sockets of socketCounts) {
      const rate = sockets >= 500 ? 200 : 1_000;
      const viaBff = await fanOutRun({ fake, ...bffTarget, sockets, rate, durationMs });
      const viaBare = await fanOutRun({ fake, ...bareTarget, sockets, rate, durationMs });
      const label = `${rate} ev/s -> ${sockets} sockets`;
      const isComplete = viaBff.delivered >= viaBff.sent * sockets;
      rec.add({
        metric: `${label}: delivered/s via BFF`,
        value: viaBff.deliveredPerS,
        unit: 'msg/s',
        reference: { name: 'bare ws', value: viaBare.deliveredPerS },
        note: `offered ${rate * sockets}/s; BFF delivered ${viaBff.delivered} of ${viaBff.sent * sockets}${isComplete ? '' : ' (INCOMPLETE)'}, bare ${viaBare.delivered} of ${viaBare.sent * sockets}; BFF sockets closed early: ${viaBff.closedCodes.length}`,
      });
      rec.add({
        metric: `${label}: p50 latency via BFF`,
        value: viaBff.p50,
        unit: 'ms',
        reference: { name: 'bare ws', value: viaBare.p50 },
      });
      const isTargetRow = sockets === 100;
      if (sockets === 10) p99At10 = viaBff.p99;
      rec.add({
        metric: `${label}: p99 latency via BFF`,
        value: viaBff.p99,
        unit: 'ms',
        reference: { name: 'bare ws', value: viaBare.p99 },
        ...(isTargetRow
          ? {
              target: '<= 25 ms (1,000 ev/s, 100 sockets)',
              isMet: viaBff.p99 !== null && viaBff.p99 <= 25 && isComplete,
            }
          : {}),
      });
      rec.add({
        metric: `${label}: RSS during run, BFF`,
        value: Math.max(...viaBff.rss, 0),
        unit: 'MiB',
        reference: { name: 'bare ws', value: Math.max(...viaBare.rss, 0) },
      });
    }

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
    rec.note(
      'Upstream events come from a fake upstream in the bench process (topic envelope, transaction.updated, ~900 B; signature of the handshake NOT checked). Receivers (ws clients) also run in the bench process, so at high delivery rates all three processes compete for the 2 cores.',
    );
  } finally {
    await bare?.stop();
    await fake.close();
  }
}
