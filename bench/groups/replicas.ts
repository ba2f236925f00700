import { startFakeUpstream, type FakeUpstream } from '../lib/fake-upstream';
import { load, type LoadResult } from '../lib/load';
import { startPostgres } from '../lib/postgres';
import { sleep, stopAllChildren } from '../lib/procs';
import { openReceivers } from '../lib/receivers';
import { median, percentile, type GroupRecorder } from '../lib/report';
import { startBff, startSandbox, type BffProc, type SeededOrg, type Session } from '../lib/stack';
import type { BenchContext } from '../run';

/**
 * Group 7: the BFF on its embedded default (SQLite) beside the BFF on PostgreSQL, one replica
 * and two, side by side in one run: signed GET throughput through every replica at once, and
 * relay latency from the upstream to browser sockets spread over the replicas (on PostgreSQL
 * the leader alone reads the upstream; the other replica relays what the store NOTIFYs).
 */

const TARGET = '/api/v1/ledger/accounts?limit=20';

type Setup = {
  name: string;
  replicas: { bff: BffProc; session: Session }[];
  fake: FakeUpstream;
};

async function throughput(
  setup: Setup,
  connections: number,
  durationS: number,
): Promise<{ rps: number; p99: number; non2xx: number }> {
  const share = Math.max(1, Math.floor(connections / setup.replicas.length));
  const runs: LoadResult[] = await Promise.all(
    setup.replicas.map(({ bff, session }) =>
      load({
        url: `${bff.url}/bff${TARGET}`,
        headers: { cookie: session.cookie, origin: bff.url },
        connections: share,
        durationS,
      }),
    ),
  );
  return {
    rps: runs.reduce((sum, r) => sum + r.okPerSecond, 0),
    p99: Math.max(...runs.map((r) => r.p99Ms)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

async function relayRun(
  setup: Setup,
  sockets: number,
  rate: number,
  durationMs: number,
): Promise<{ p50: number | null; p99: number | null; lost: number }> {
  const { fake } = setup;
  const share = Math.ceil(sockets / setup.replicas.length);
  const expected = Math.floor((rate * durationMs) / 1000);
  const receivers = await Promise.all(
    setup.replicas.map(({ bff, session }) =>
      openReceivers({
        url: `${bff.url.replace('http:', 'ws:')}/bff/events`,
        count: share,
        headers: { cookie: session.cookie, origin: bff.url },
        idPrefix: fake.idPrefix,
        sentAt: fake.sentAt,
        maxSamples: expected * share,
      }),
    ),
  );
  await sleep(300);
  const sent = await fake.emit('bff', rate, durationMs);
  const total = () => receivers.reduce((sum, r) => sum + r.delivered(), 0);
  const deadline = performance.now() + 5_000;
  while (total() < sent * share * receivers.length && performance.now() < deadline) {
    await sleep(20);
  }
  const samples = receivers.flatMap((r) => Array.from(r.latencies()));
  const lost = sent * share * receivers.length - total();
  for (const r of receivers) r.close();
  await sleep(200);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), lost };
}

async function waitForLeader(fake: FakeUpstream): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (fake.connections('bff') === 0) {
    if (performance.now() > deadline) throw new Error('no replica connected upstream in 20 s');
    await sleep(50);
  }
}

export async function runReplicas(ctx: BenchContext, rec: GroupRecorder): Promise<void> {
  const durationS = ctx.isQuick ? 1 : 6;
  const relayMs = ctx.isQuick ? 1_000 : 5_000;
  const rounds = ctx.isQuick ? 1 : 3;
  const connections = 16;
  const sockets = 100;
  const rate = 200;
  const fakes: FakeUpstream[] = [];
  // PostgreSQL and the sandbox start side by side; the finally stops PostgreSQL once started.
  const postgresStarted = startPostgres();
  // Handled now, so a failure while the sandbox starts is not an unhandled rejection; it still
  // throws where it is awaited.
  postgresStarted.catch(() => undefined);
  try {
    const sandbox = await startSandbox(ctx.workDir, { blockMs: 1000, name: 'replicas-sandbox' });
    const { url: postgresUrl } = await postgresStarted;
    const start = async (
      name: string,
      options: {
        databaseUrl?: string;
        replicaOf?: SeededOrg;
        fake: FakeUpstream;
        onSeeded?: (org: SeededOrg) => void;
      },
    ) => {
      const bff = await startBff(ctx.workDir, sandbox, {
        name,
        upstreamWsUrl: options.fake.wsUrl,
        onSeeded: (org) => {
          options.fake.setOrgId(org.credentials.orgId);
          options.onSeeded?.(org);
        },
        ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
        ...(options.replicaOf ? { replicaOf: options.replicaOf } : {}),
      });
      return { bff, session: await bff.login('support') };
    };
    const sqliteFake = await startFakeUpstream();
    const pgFake = await startFakeUpstream();
    fakes.push(sqliteFake, pgFake);
    // Two organizations, two databases, side by side; the second replica starts beside the
    // first once it is seeded, as the replicas of a deployment start together (their
    // migrations take an advisory lock).
    let pgSeeded: (org: SeededOrg) => void = () => undefined;
    const pgOrg = new Promise<SeededOrg>((resolveOrg) => {
      pgSeeded = resolveOrg;
    });
    const [sqlite, pgA, pgB] = await Promise.all([
      start('bff-sqlite', { fake: sqliteFake }),
      start('bff-pg-a', { databaseUrl: postgresUrl, fake: pgFake, onSeeded: pgSeeded }),
      pgOrg.then((org) =>
        start('bff-pg-b', { databaseUrl: postgresUrl, replicaOf: org, fake: pgFake }),
      ),
    ]);
    // The same 20 accounts in each organization, so every GET returns the same ~6 KB.
    await Promise.all(
      [sqlite, pgA].map(async ({ bff }) => {
        const treasury = await bff.login('treasury');
        for (let i = 0; i < 20; i += 1) {
          await bff.call('POST', '/bff/api/v1/ledger/accounts', treasury, { name: `Bench ${i}` });
        }
      }),
    );
    await waitForLeader(sqliteFake);
    await waitForLeader(pgFake);

    const setups: Setup[] = [
      { name: 'SQLite, 1 BFF', replicas: [sqlite], fake: sqliteFake },
      { name: 'PostgreSQL, 1 replica', replicas: [pgA], fake: pgFake },
      { name: 'PostgreSQL, 2 replicas', replicas: [pgA, pgB], fake: pgFake },
    ];
    for (const setup of setups) await throughput(setup, connections, 1); // warm-up

    const rps: Record<string, number[]> = {};
    const p99: Record<string, number[]> = {};
    const relay: Record<string, { p50: number[]; p99: number[]; lost: number }> = {};
    let non2xx = 0;
    // Interleaved rounds, so a burst of other work on the machine hits every setup alike.
    for (let round = 0; round < rounds; round += 1) {
      for (const setup of setups) {
        const t = await throughput(setup, connections, durationS);
        (rps[setup.name] ??= []).push(t.rps);
        (p99[setup.name] ??= []).push(t.p99);
        non2xx += t.non2xx;
        const r = await relayRun(setup, sockets, rate, relayMs);
        const entry = (relay[setup.name] ??= { p50: [], p99: [], lost: 0 });
        if (r.p50 !== null) entry.p50.push(r.p50);
        if (r.p99 !== null) entry.p99.push(r.p99);
        entry.lost += r.lost;
      }
    }
    const base = setups[0]?.name ?? '';
    for (const setup of setups) {
      rec.add({
        metric: `signed GET/s, ${setup.name} (16 conns in all)`,
        value: median(rps[setup.name] ?? []),
        unit: 'req/s',
        ...(setup.name === base
          ? {}
          : { reference: { name: base, value: median(rps[base] ?? []) } }),
        note: `p99 ${median(p99[setup.name] ?? [])?.toFixed(1) ?? '-'} ms; median of ${rounds} round(s) of ${durationS} s`,
      });
    }
    for (const setup of setups) {
      const entry = relay[setup.name];
      rec.add({
        metric: `relay p99, ${rate} ev/s -> ${sockets} sockets, ${setup.name}`,
        value: median(entry?.p99 ?? []),
        unit: 'ms',
        ...(setup.name === base
          ? {}
          : { reference: { name: base, value: median(relay[base]?.p99 ?? []) } }),
        target: 'every event delivered',
        isMet: entry?.lost === 0,
        note: `p50 ${median(entry?.p50 ?? [])?.toFixed(1) ?? '-'} ms; events not delivered: ${entry?.lost ?? '-'}`,
      });
    }
    rec.add({
      metric: 'non-2xx responses over all runs',
      value: non2xx,
      unit: '',
      target: '0',
      isMet: non2xx === 0,
    });
    rec.chart({
      id: 'replicas-throughput',
      title: 'Signed GETs through the BFF: SQLite, PostgreSQL, 1 and 2 replicas',
      xLabel: 'BFF replicas',
      yLabel: 'req/s (16 connections in all)',
      series: [
        { name: 'SQLite', points: [{ x: 1, y: median(rps[base] ?? []) }] },
        {
          name: 'PostgreSQL',
          points: [
            { x: 1, y: median(rps['PostgreSQL, 1 replica'] ?? []) },
            { x: 2, y: median(rps['PostgreSQL, 2 replicas'] ?? []) },
          ],
        },
      ],
    });
    rec.note(
      'One machine with 2 cores runs the sandbox, PostgreSQL, every replica and the load generator, so a second replica adds no CPU: read 1 vs 2 replicas as the cost of sharing (NOTIFY, the leader-only upstream), not as scaling. Each setup reads its own fake upstream; on PostgreSQL only the leader holds it.',
    );
  } finally {
    // The replicas go before their database, so none of them logs a lost connection.
    await stopAllChildren();
    for (const fake of fakes) await fake.close();
    await postgresStarted.then(
      (postgres) => postgres.stop(),
      () => undefined,
    );
  }
}
