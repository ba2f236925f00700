import { join } from 'node:path';
import { createSettlementClient } from '@settlement/client';
import { signRestRequest, type Signer } from '@settlement/protocol/signing';
import { loadKeys } from '@settlement/bff/config';
import { createSodiumSigner } from '@settlement/bff/signer';
import { load, pacedLoad, type LoadResult } from '../lib/load';
import { freePort, profileArgs, spawnTs, waitForHttp, type Child } from '../lib/procs';
import { median, percentile, type GroupRecorder } from '../lib/report';
import { startStallProbe } from '../lib/stall-probe';
import { startBff, startSandbox } from '../lib/stack';
import type { BenchContext } from '../run';

/**
 * Group 2: the same signed GET five ways, each in its own process beside the sandbox:
 * through the BFF (session cookie; the BFF signs), straight to the sandbox (the load
 * generator signs per request as packages/client does), through an unsigned pass-through
 * proxy on the BFF's stack (express 5 + the same undici pool; the load generator signs),
 * through the floor below it (bare node:http + the same undici pool), and (full runs) through
 * the BFF's own work for the read on bare node:http (bench/servers/bff-work.ts), so each
 * layer's cost shows: floor -> express -> the BFF's work -> express and routers around it.
 */

const TARGET = '/api/v1/ledger/accounts?limit=20';

/** One saturated round of one path, per request: each process's CPU, and the sandbox's load. */
type ProcessShare = {
  /** The process in front of the sandbox (the BFF, the pass-through, the floor); 0 for direct. */
  frontUs: number;
  sandboxUs: number;
  /** The load generator: this process (autocannon, and the signing of the reference paths). */
  generatorUs: number;
  /** The sandbox's CPU time over the round's wall time, in cores (1: one core all the time). */
  sandboxBusy: number;
};

function signedHeaders(signer: Signer): Record<string, string> {
  return { ...signRestRequest(signer, { method: 'GET', target: TARGET, body: null }) };
}

/** Closed loop of `workers` concurrent packages/client calls for `durationS`. */
async function clientLoop(
  baseUrl: string,
  signer: Signer,
  workers: number,
  durationS: number,
): Promise<LoadResult> {
  const client = createSettlementClient({ baseUrl, signer });
  const latencies: number[] = [];
  let ok = 0;
  let other = 0;
  const started = performance.now();
  const deadline = started + durationS * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        const response = await client.send('GET', TARGET);
        latencies.push(performance.now() - t);
        if (response.status === 200) ok += 1;
        else other += 1;
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  await client.close();
  return {
    okPerSecond: ok / elapsedS,
    p50Ms: percentile(latencies, 50) ?? 0,
    p99Ms: percentile(latencies, 99) ?? 0,
    non2xx: other,
    errors: 0,
    total: ok + other,
  };
}

export async function runBffOverhead(ctx: BenchContext, rec: GroupRecorder): Promise<void> {
  const durationS = ctx.isQuick ? 1 : 6;
  const rounds = ctx.isQuick ? 1 : 3;
  // --quick stays well inside CI's two minutes: a shorter warm-up and 500 paced requests a path.
  const warmUpS = ctx.isQuick ? 0.5 : 1;
  const pacedS = ctx.isQuick ? 1 : durationS;
  const connections = 16;
  const fixedRate = 500;
  const sandbox = await startSandbox(ctx.workDir, { blockMs: 1000 });
  let proxy: Child | null = null;
  let floor: Child | null = null;
  let work: Child | null = null;
  try {
    // The references need only the sandbox: they start while the BFF seeds and starts.
    const proxyPort = await freePort();
    proxy = spawnTs({
      name: 'pass-through',
      script: 'bench/servers/pass-through.ts',
      env: { PORT: String(proxyPort), UPSTREAM_URL: sandbox.url },
      logFile: join(ctx.workDir, 'pass-through.log'),
    });
    const floorPort = await freePort();
    floor = spawnTs({
      name: 'node-http-proxy',
      script: 'bench/servers/node-http-proxy.ts',
      env: { PORT: String(floorPort), UPSTREAM_URL: sandbox.url },
      logFile: join(ctx.workDir, 'node-http-proxy.log'),
    });
    const bff = await startBff(ctx.workDir, sandbox);
    // The BFF's work alone reads the seeded BFF's keys, sessions and configuration (--quick
    // leaves it out: CI's two minutes).
    const workPort = await freePort();
    if (!ctx.isQuick) {
      work = spawnTs({
        name: 'bff-work',
        script: 'bench/servers/bff-work.ts',
        env: {
          PORT: String(workPort),
          DATA_DIR: join(ctx.workDir, 'bff'),
          UPSTREAM_URL: sandbox.url,
          LOG_LEVEL: 'info',
        },
        nodeArgs: profileArgs('bff-work'),
        logFile: join(ctx.workDir, 'bff-work.log'),
      });
    }
    const treasury = await bff.login('treasury');
    for (let i = 0; i < 20; i += 1) {
      await bff.call('POST', '/bff/api/v1/ledger/accounts', treasury, { name: `Bench ${i}` });
    }
    const support = await bff.login('support');
    const keys = loadKeys(join(ctx.workDir, 'bff', 'bff', 'keys.json'));
    const reader = keys.keys.find((k) => k.scopes.includes('accounts:read'));
    if (!reader) throw new Error('no accounts:read key');
    const signer = createSodiumSigner(reader.keyId, reader.seed);

    const proxyUrl = `http://127.0.0.1:${proxyPort}`;
    await waitForHttp(`${proxyUrl}/healthz`, 'pass-through');
    const floorUrl = `http://127.0.0.1:${floorPort}`;
    await waitForHttp(`${floorUrl}/healthz`, 'node:http proxy');
    const workUrl = `http://127.0.0.1:${workPort}`;
    if (work) await waitForHttp(`${workUrl}/healthz`, "the BFF's work on node:http");

    const targets = {
      bff: {
        url: `${bff.url}/bff${TARGET}`,
        headers: { cookie: support.cookie, origin: bff.url },
      },
      work: {
        url: `${workUrl}/bff${TARGET}`,
        headers: { cookie: support.cookie, origin: bff.url },
      },
      proxy: { url: `${proxyUrl}${TARGET}`, setup: () => ({ headers: signedHeaders(signer) }) },
      floor: { url: `${floorUrl}${TARGET}`, setup: () => ({ headers: signedHeaders(signer) }) },
      direct: { url: `${sandbox.url}${TARGET}`, setup: () => ({ headers: signedHeaders(signer) }) },
    } as const;
    type Name = keyof typeof targets;
    const run = (name: Name, extra: { durationS: number; c: number }) =>
      load({ ...targets[name], connections: extra.c, durationS: extra.durationS });
    // Open loop at a fixed rate, latency from each request's due moment (see pacedLoad).
    const paced = (name: Name, durationS: number) => {
      const target: {
        url: string;
        headers?: Record<string, string>;
        setup?: () => { headers: Record<string, string> };
      } = targets[name];
      return pacedLoad({
        url: target.url,
        ...(target.headers ? { headers: target.headers } : {}),
        ...(target.setup ? { setup: target.setup } : {}),
        rate: fixedRate,
        durationS,
        connections: connections,
      });
    };

    // Warm-up (JIT, connection pools, SQLite caches): not recorded.
    const ALL_NAMES = ['bff', 'work', 'proxy', 'floor', 'direct'] as const;
    const NAMES = ALL_NAMES.filter((name) => name !== 'work' || work !== null);
    for (const name of NAMES) await run(name, { durationS: warmUpS, c: connections });

    const saturated: Record<Name, LoadResult[]> = {
      bff: [],
      work: [],
      proxy: [],
      floor: [],
      direct: [],
    };
    const cpu: Record<Name, number[]> = { bff: [], work: [], proxy: [], floor: [], direct: [] };
    const serverCpuMs = (): number =>
      (bff.child.cpuMs() ?? 0) +
      (proxy?.cpuMs() ?? 0) +
      (floor?.cpuMs() ?? 0) +
      (work?.cpuMs() ?? 0) +
      (sandbox.child.cpuMs() ?? 0);
    // Each path's CPU by process: the proxy in front (none for direct), the sandbox, and the
    // load generator (this process), per request; and the sandbox's busy share of one core,
    // which shows when a path is bound by the sandbox's single thread rather than by the cores.
    const proxyOf: Record<Name, Child | null> = {
      bff: bff.child,
      work,
      proxy,
      floor,
      direct: null,
    };
    const byProcess: Record<Name, ProcessShare[]> = {
      bff: [],
      work: [],
      proxy: [],
      floor: [],
      direct: [],
    };
    // Interleaved rounds, so a burst of other work on the machine hits every path alike.
    for (let r = 0; r < rounds; r += 1) {
      for (const name of NAMES) {
        const before = serverCpuMs();
        const front = proxyOf[name]?.cpuMs() ?? 0;
        const sandboxBefore = sandbox.child.cpuMs() ?? 0;
        const generator = process.cpuUsage();
        const started = performance.now();
        const result = await run(name, { durationS, c: connections });
        const wallMs = performance.now() - started;
        const generatorUs = process.cpuUsage(generator);
        const after = serverCpuMs();
        const requests = Math.max(1, result.total);
        saturated[name].push(result);
        cpu[name].push(((after - before) * 1000) / requests);
        byProcess[name].push({
          frontUs: (((proxyOf[name]?.cpuMs() ?? 0) - front) * 1000) / requests,
          sandboxUs: (((sandbox.child.cpuMs() ?? 0) - sandboxBefore) * 1000) / requests,
          generatorUs: (generatorUs.user + generatorUs.system) / requests,
          sandboxBusy: ((sandbox.child.cpuMs() ?? 0) - sandboxBefore) / wallMs,
        });
      }
    }
    const pick = (name: Name, f: (r: LoadResult) => number) => median(saturated[name].map(f)) ?? 0;
    const rps = (name: Name) => pick(name, (r) => r.okPerSecond);
    const ratio = rps('bff') / rps('proxy');
    const roundsOf = (name: Name) =>
      saturated[name].map((r) => r.okPerSecond.toFixed(0)).join(' / ');
    rec.add({
      metric: 'signed GET/s via BFF (saturated, 16 conns)',
      value: rps('bff'),
      unit: 'req/s',
      reference: { name: 'pass-through proxy', value: rps('proxy') },
      target: '>= 0.9x pass-through',
      isMet: ratio >= 0.9,
      // Every round, in order: a first round well below the others is warm-up the median keeps.
      note: `median of ${rounds} interleaved round(s) of ${durationS} s; each round, in order: BFF ${roundsOf('bff')}, pass-through ${roundsOf('proxy')} req/s`,
    });
    rec.add({
      metric: 'pass-through (express) vs its floor (node:http + undici)',
      value: rps('proxy'),
      unit: 'req/s',
      reference: { name: 'node:http floor', value: rps('floor') },
    });
    if (work) {
      rec.add({
        metric: "the BFF's own work on bare node:http vs the pass-through",
        value: rps('work'),
        unit: 'req/s',
        reference: { name: 'pass-through proxy', value: rps('proxy') },
        note: `what the read costs with no express around it: session row, role, signing and the BFF's client with its request-log row, request line, security headers (bench/servers/bff-work.ts); each round, in order: ${roundsOf('work')} req/s`,
      });
      rec.add({
        metric: "signed GET/s via BFF vs the BFF's own work on bare node:http",
        value: rps('bff'),
        unit: 'req/s',
        reference: { name: "the BFF's work on node:http", value: rps('work') },
        note: 'what express, its routers and the middlewares around the read add',
      });
    }
    rec.add({
      metric: 'signed GET/s via BFF vs direct to sandbox',
      value: rps('bff'),
      unit: 'req/s',
      reference: { name: 'direct (signed per request)', value: rps('direct') },
    });
    rec.add({
      metric: 'pass-through proxy vs direct',
      value: rps('proxy'),
      unit: 'req/s',
      reference: { name: 'direct', value: rps('direct') },
    });
    for (const name of NAMES) {
      rec.add({
        metric: `${name} saturated p50 / p99`,
        value: pick(name, (r) => r.p50Ms),
        unit: `ms / ${pick(name, (r) => r.p99Ms).toFixed(1)} ms`,
      });
    }
    for (const name of NAMES) {
      rec.add({
        metric: `${name}: CPU of all server processes per request`,
        value: median(cpu[name]),
        unit: 'us',
        ...(name === 'direct' ? {} : { reference: { name: 'direct', value: median(cpu.direct) } }),
      });
    }

    const share = (name: Name, f: (p: ProcessShare) => number) =>
      median(byProcess[name].map(f)) ?? 0;
    for (const name of NAMES) {
      rec.add({
        metric: `${name}: CPU per request by process (saturated)`,
        value: name === 'direct' ? share(name, (p) => p.sandboxUs) : share(name, (p) => p.frontUs),
        unit: 'us',
        note: `${name === 'direct' ? 'the sandbox' : `the ${name} process; the sandbox ${share(name, (p) => p.sandboxUs).toFixed(0)} us`}; the load generator ${share(name, (p) => p.generatorUs).toFixed(0)} us; the sandbox's CPU ${share(name, (p) => p.sandboxBusy).toFixed(2)} cores (medians of ${rounds} round(s))`,
      });
    }
    rec.add({
      metric: "the sandbox's CPU in cores, saturated via the BFF",
      value: share('bff', (p) => p.sandboxBusy),
      unit: 'cores',
      reference: {
        name: 'via the pass-through',
        value: share('proxy', (p) => p.sandboxBusy),
      },
      // The sandbox serves on one thread; its other threads (GC, the checkpointer) add a little.
      note: "about 1 core: the path is bound by the sandbox's one thread; below it, the sandbox was idle at times, waiting for a request or for a core",
    });

    const client = await clientLoop(sandbox.url, signer, connections, durationS);
    rec.add({
      metric: 'direct via packages/client (closed loop, 16 workers)',
      value: client.okPerSecond,
      unit: 'req/s',
      reference: { name: 'direct (autocannon)', value: rps('direct') },
      note: `p50 ${client.p50Ms.toFixed(1)} ms, p99 ${client.p99Ms.toFixed(1)} ms; the client runs in the load generator's process`,
    });

    const fixed: Partial<Record<Name, LoadResult>> = {};
    const fixedRuns: Record<Name, LoadResult[]> = {
      bff: [],
      work: [],
      proxy: [],
      floor: [],
      direct: [],
    };
    // Which paced rounds the machine stalled in (see stall-probe.ts).
    const probe = startStallProbe(join(ctx.workDir, 'stall-probe.log'));
    for (let r = 0; r < rounds; r += 1) {
      for (const name of NAMES) {
        fixedRuns[name].push(await probe.timed(name, () => paced(name, pacedS)));
      }
    }
    await probe.settle();
    await probe.child.stop();
    for (const name of NAMES) {
      fixed[name] = {
        ...(fixedRuns[name][0] as LoadResult),
        p50Ms: median(fixedRuns[name].map((x) => x.p50Ms)) ?? 0,
        p99Ms: median(fixedRuns[name].map((x) => x.p99Ms)) ?? 0,
        non2xx: fixedRuns[name].reduce((sum, x) => sum + x.non2xx + x.errors, 0),
      };
    }
    const f = (name: Name) => fixed[name] ?? { p50Ms: 0, p99Ms: 0, non2xx: 0 };
    const addedP99 = f('bff').p99Ms - f('direct').p99Ms;
    rec.add({
      metric: `p50 at a fixed ${fixedRate} req/s, BFF`,
      value: f('bff').p50Ms,
      unit: 'ms',
      reference: { name: 'direct', value: f('direct').p50Ms },
      note: `pass-through ${f('proxy').p50Ms.toFixed(1)} ms; added by the BFF over direct: ${(f('bff').p50Ms - f('direct').p50Ms).toFixed(1)} ms`,
    });
    rec.add({
      metric: `p99 at a fixed ${fixedRate} req/s, BFF`,
      value: f('bff').p99Ms,
      unit: 'ms',
      reference: { name: 'direct', value: f('direct').p99Ms },
      note: `pass-through ${f('proxy').p99Ms.toFixed(1)} ms, node:http floor ${f('floor').p99Ms.toFixed(1)} ms${work ? `, the BFF's work on node:http ${f('work').p99Ms.toFixed(1)} ms` : ''}; medians of ${rounds} round(s)`,
    });
    rec.add({
      metric: `p99 added by the BFF over direct at a fixed ${fixedRate} req/s`,
      value: addedP99,
      unit: 'ms',
      reference: {
        name: 'added by the express pass-through',
        value: f('proxy').p99Ms - f('direct').p99Ms,
      },
      target: '<= 5 ms',
      isMet: addedP99 <= 5,
      note: `answered per second of the ${fixedRate} offered (median): ${NAMES.map((name) => `${name} ${(median(fixedRuns[name].map((x) => x.okPerSecond)) ?? 0).toFixed(0)}`).join(', ')}; a path below the offered rate was saturated, so its p99 is a queue, not the added cost. The machine's stalls (a probe process that only wakes every ms, late by more than 8 ms) in each round, BFF: ${probe.roundsText('bff')}; direct: ${probe.roundsText('direct')}`,
    });
    const non2xx = [...Object.values(saturated).flat(), ...Object.values(fixed)].reduce(
      (sum, r) => sum + r.non2xx,
      0,
    );
    rec.add({
      metric: 'non-2xx responses over all runs',
      value: non2xx,
      unit: '',
      target: '0',
      isMet: non2xx === 0,
    });
    rec.note(
      `GET ${TARGET} (20 accounts, ~6 KB); load generator (autocannon) shares the 2 cores with the sandbox, BFF and proxy processes; ${rounds} round(s) of ${durationS} s, median.`,
    );
  } finally {
    await work?.stop();
    await proxy?.stop();
    await floor?.stop();
  }
}
