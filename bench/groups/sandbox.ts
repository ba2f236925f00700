import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createSettlementClient } from '@settlement/client';
import { checkLedgerInvariants } from '@settlement/sandbox/ledger';
import { load } from '../lib/load';
import { createBenchOrg, createWallet, makeOrgReady, type BenchOrg } from '../lib/org';
import { percentile, type GroupRecorder } from '../lib/report';
import { explainLists, listCases, measureLists, withdrawalsEndToEnd } from '../lib/sandbox-probes';
import { seedTransactions } from '../lib/seed-transactions';
import { startSandbox, type SandboxProc } from '../lib/stack';
import type { BenchContext } from '../run';

/**
 * Group 4: the sandbox process alone, fast blocks (20 ms): signed GET/s and POST/s (ledger
 * accounts; wallets with a new idempotency key each, and replays of one key); then, with
 * 10,000 / 100,000 / 1,000,000 transactions stored (--quick: 10,000), filtered list pages one
 * at a time with their query plans, and a burst of withdrawals processed end to end (reserve,
 * Co-Signer claim and signature, broadcast, 19 confirmations, every event over /v1/ws); the
 * ledger invariants checked on the database afterwards.
 */

/** Seeded copy number i is created at EPOCH_S + i: well before every real row. */
const EPOCH_S = Math.floor(Date.parse('2026-01-01T00:00:00Z') / 1000);

function fmt(ms: number | null): string {
  return ms === null ? '-' : ms.toFixed(1);
}

/** The funding deposit of the treasury wallet: a real CONFIRMED row the seed copies. */
async function templateDeposit(org: BenchOrg, walletId: string): Promise<{ id: string }> {
  const page = await org.client.listTransactions({ walletId, type: 'DEPOSIT', limit: 1 });
  const first = page.items[0];
  if (first === undefined) throw new Error('no deposit to copy');
  return { id: first.id };
}

/** Wallets the seeded rows are dealt over: the treasury's and two on each of three accounts. */
async function spreadWallets(
  org: BenchOrg,
  funded: { walletId: string; accountId: string },
): Promise<{ walletId: string; accountId: string }[]> {
  const wallets = [{ walletId: funded.walletId, accountId: funded.accountId }];
  for (let a = 0; a < 3; a += 1) {
    const account = await org.client.createAccount({ name: `Bench spread ${String(a)}` });
    for (let w = 0; w < 2; w += 1) {
      const wallet = await org.client.createWallet(
        { chain: 'tron:nile', accountId: account.id },
        `bench-spread-${account.id}-${String(w)}`,
      );
      wallets.push({ walletId: wallet.id, accountId: account.id });
    }
  }
  return wallets;
}

/** The same org and key against a sandbox started again on the same data directory. */
function reattach(sandbox: SandboxProc, org: BenchOrg): BenchOrg {
  return { ...org, client: createSettlementClient({ baseUrl: sandbox.url, signer: org.signer }) };
}

export async function runSandbox(ctx: BenchContext, rec: GroupRecorder): Promise<void> {
  const durationS = ctx.isQuick ? 1 : 5;
  const withdrawals = ctx.isQuick ? 200 : 2_000;
  const connections = 16;
  let sandbox = await startSandbox(ctx.workDir, { blockMs: 20, name: 'bench-sandbox' });
  let org = await createBenchOrg(sandbox, 'Bench sandbox org');
  await makeOrgReady(sandbox, org);
  const funded = await createWallet(sandbox, org, 'Bench treasury', '1000000000000');
  for (let i = 0; i < 20; i += 1) await org.client.createAccount({ name: `Bench list ${i}` });

  const getTarget = '/api/v1/ledger/accounts?limit=20';
  const signedGet = () => ({ headers: org.sign('GET', getTarget, null) });
  await load({ url: `${sandbox.url}${getTarget}`, setup: signedGet, connections, durationS: 1 });
  const health = await load({ url: `${sandbox.url}/sandbox/healthz`, connections, durationS });
  const get = await load({
    url: `${sandbox.url}${getTarget}`,
    setup: signedGet,
    connections,
    durationS,
  });
  rec.add({
    metric: `signed GET ${getTarget}`,
    value: get.okPerSecond,
    unit: 'req/s',
    reference: { name: 'unsigned GET /sandbox/healthz', value: health.okPerSecond },
    note: `p50 ${get.p50Ms} ms, p99 ${get.p99Ms} ms; non-2xx ${get.non2xx}`,
  });

  let n = 0;
  const accounts = await load({
    url: `${sandbox.url}/api/v1/ledger/accounts`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    setup: () => {
      n += 1;
      const body = JSON.stringify({ name: `Load ${n}`, externalId: `ext-${Date.now()}-${n}` });
      return { headers: org.sign('POST', '/api/v1/ledger/accounts', body), body };
    },
    connections,
    durationS,
  });
  rec.add({
    metric: 'signed POST /api/v1/ledger/accounts (new account each)',
    value: accounts.okPerSecond,
    unit: 'req/s',
    reference: { name: 'signed GET', value: get.okPerSecond },
    note: `p50 ${accounts.p50Ms} ms, p99 ${accounts.p99Ms} ms; non-2xx ${accounts.non2xx}`,
  });

  const walletBody = JSON.stringify({ chain: 'tron:nile', accountId: funded.accountId });
  const walletHeaders = (key: string) => ({
    ...org.sign('POST', '/api/v1/wallets', walletBody),
    'x-idempotency-key': key,
  });
  const wallets = await load({
    url: `${sandbox.url}/api/v1/wallets`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: walletBody,
    setup: () => {
      n += 1;
      return { headers: walletHeaders(`bench-w-${Date.now()}-${n}`) };
    },
    connections,
    durationS,
  });
  rec.add({
    metric: 'signed idempotent POST /api/v1/wallets (new key each)',
    value: wallets.okPerSecond,
    unit: 'req/s',
    reference: { name: 'signed GET', value: get.okPerSecond },
    note: `p50 ${wallets.p50Ms} ms, p99 ${wallets.p99Ms} ms; non-2xx ${wallets.non2xx} (each makes a secp256k1 key pair and a TRON address)`,
  });
  const replayKey = `bench-replay-${Date.now()}`;
  const replays = await load({
    url: `${sandbox.url}/api/v1/wallets`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: walletBody,
    setup: () => ({ headers: walletHeaders(replayKey) }),
    connections,
    durationS,
  });
  rec.add({
    metric: 'idempotent replay of one POST /api/v1/wallets key',
    value: replays.okPerSecond,
    unit: 'req/s',
    reference: { name: 'new key each', value: wallets.okPerSecond },
    note: `non-2xx ${replays.non2xx}`,
  });

  // The store at growing sizes: list pages and withdrawals end to end at each.
  const template = await templateDeposit(org, funded.walletId);
  const spread = await spreadWallets(org, funded);
  const sizes = ctx.isQuick ? [10_000] : [10_000, 100_000, 1_000_000];
  const curve: { size: number; listP99: number | null; e2e: number | null }[] = [];
  let seeded = 1;
  for (const size of sizes) {
    const seedStarted = performance.now();
    // Past the first size the sandbox is stopped while SQLite writes the rows unjournaled
    // (seconds, not minutes, and no write lock held for seconds under a running sandbox), then
    // started again on the same data directory.
    const isAlone = seeded > 1;
    if (isAlone) await sandbox.child.stop();
    seedTransactions(sandbox.dataDir, template.id, {
      from: seeded,
      to: size - 1,
      spread: { wallets: spread },
      epochS: EPOCH_S,
      isAlone,
    });
    seeded = size;
    if (isAlone) {
      sandbox = await startSandbox(ctx.workDir, { blockMs: 20, name: 'bench-sandbox' });
      org = reattach(sandbox, org);
    }
    const seedS = (performance.now() - seedStarted) / 1000;
    const label = `${(size / 1000).toLocaleString()}k`;

    const cases = listCases({
      // A wallet of seeded rows only (the treasury's also holds the withdrawals below).
      walletId: spread[1]?.walletId ?? funded.walletId,
      accountId: spread[1]?.accountId ?? funded.accountId,
      from: new Date((EPOCH_S + size / 2) * 1000).toISOString(),
      to: new Date((EPOCH_S + size / 2 + 86_400) * 1000).toISOString(),
    });
    const rounds = ctx.isQuick ? 5 : 10;
    // Warm-up. A sandbox started again for the seed (sizes past the first) spends its first
    // seconds starting: young collections of 7-12 ms, its Co-Signer worker's start, code not yet
    // optimized. One round was too short for that: the first set measured after it (newest
    // first) read 23-43 ms at 1M in six full runs of 2026-12-07, every other set at most 14 ms,
    // and the same set 2-6 ms two passes later. So a restarted sandbox gets a whole pass first,
    // as long as the measured one, and that pass's p99 is reported beside the measured one (the
    // process that measured 10k had run all along).
    const warm = await measureLists(sandbox.url, org, cases, isAlone ? rounds : 1);
    const warmPages = warm.filter((l) => !l.isExportPaging).flatMap((l) => l.samples);
    const lists = await measureLists(sandbox.url, org, cases, rounds);
    // 50-row pages against the target; the CSV export's 200-row pages reported apart.
    const pages = lists.filter((l) => !l.isExportPaging);
    const all = pages.flatMap((l) => l.samples);
    const listP99 = percentile(all, 99);
    rec.add({
      metric: `list pages, ${label} stored: p99 over ${String(pages.length)} filter sets`,
      value: listP99,
      unit: 'ms',
      target: '<= 20 ms at 1,000,000',
      isMet: size === 1_000_000 && listP99 !== null ? listP99 <= 20 : null,
      note: `p50 ${fmt(percentile(all, 50))} ms, max ${fmt(Math.max(...all))} ms over ${String(all.length)} pages (one request at a time, signed, 50 rows a page; first and following pages); seeded in ${seedS.toFixed(1)} s${isAlone ? `; the sandbox started again after the seed, and its warm-up pass before these read p99 ${fmt(percentile(warmPages, 99))} ms` : ''}. ${pages.map((l) => `${l.name}: p99 ${fmt(l.p99Ms)} ms`).join('; ')}`,
    });
    for (const l of lists.filter((x) => x.isExportPaging)) {
      const p50 = percentile(l.samples, 50);
      rec.add({
        metric: `CSV export paging, ${label} stored (${l.name})`,
        value: p50 === null ? null : (200 * 1000) / p50,
        unit: 'rows/s',
        note: `200-row pages along the cursor: p50 ${fmt(p50)} ms, p99 ${fmt(l.p99Ms)} ms a page`,
      });
    }
    if (size === sizes.at(-1)) {
      for (const { name, plan } of explainLists(sandbox.dataDir, org.orgId, cases)) {
        rec.note(`plan at ${label}, ${name}: ${plan}`);
      }
    }

    const cpuBefore = sandbox.child.cpuMs();
    const e2e = await withdrawalsEndToEnd(sandbox.url, org, funded.walletId, {
      count: withdrawals,
      connections,
      deadlineMs: ctx.isQuick ? 30_000 : 90_000,
      label,
    });
    rec.add({
      metric: `withdrawals accepted, ${label} stored (POST /api/v1/transactions, ${String(withdrawals)})`,
      value: e2e.acceptedPerS,
      unit: 'tx/s',
      ...(e2e.refused.length > 0 ? { note: `refused: ${e2e.refused.slice(0, 5).join(', ')}` } : {}),
    });
    rec.add({
      metric: `withdrawals end to end, ${label} stored (first POST -> last transaction.confirmed)`,
      value: e2e.perS,
      unit: 'tx/s',
      target: '>= 200 tx/s',
      isMet: e2e.perS === null ? false : e2e.perS >= 200,
      note: `${String(e2e.accepted)} in ${e2e.seconds.toFixed(1)} s at 20 ms blocks (19 confirmations = 380 ms minimum each); POST -> confirmed p50 ${fmt(e2e.p50Ms)} ms, p99 ${fmt(e2e.p99Ms)} ms; ${e2e.eventsPerWithdrawal.toFixed(1)} events each over /v1/ws${e2e.pending > 0 ? `; ${String(e2e.pending)} not confirmed by the deadline` : ''}`,
    });
    const cpuAfter = sandbox.child.cpuMs();
    rec.add({
      metric: `sandbox CPU per withdrawal, ${label} stored (user + system)`,
      value: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / withdrawals,
      unit: 'ms',
      note: 'read from /proc/<pid>/stat around the burst: what the work costs, whatever else the machine runs (1,000 / this = the most one core could process)',
    });
    curve.push({ size, listP99, e2e: e2e.perS });
  }
  rec.chart({
    id: 'sandbox-list-p99-by-store',
    title: 'Sandbox list page p99 as stored transactions grow',
    xLabel: 'stored transactions',
    yLabel: 'p99 latency, ms',
    isLogX: true,
    target: { y: 20, label: 'target 20 ms' },
    series: [
      { name: 'filtered list page', points: curve.map((c) => ({ x: c.size, y: c.listP99 })) },
    ],
  });
  rec.chart({
    id: 'sandbox-withdrawals-by-store',
    title: 'Withdrawals end to end (20 ms blocks) as stored transactions grow',
    xLabel: 'stored transactions',
    yLabel: 'withdrawals confirmed per second',
    isLogX: true,
    target: { y: 200, label: 'target 200/s' },
    series: [{ name: 'end to end', points: curve.map((c) => ({ x: c.size, y: c.e2e })) }],
  });

  // Invariants on the database itself, after a clean stop.
  await sandbox.child.stop();
  const db = new Database(join(sandbox.dataDir, 'sandbox.db'), { readonly: true });
  try {
    const problems = checkLedgerInvariants(db);
    const statuses = db
      .prepare<[], { status: string; n: number }>(
        "SELECT status, COUNT(*) AS n FROM transactions WHERE type = 'WITHDRAWAL' AND request_id IS NOT 'bench-seed' GROUP BY status",
      )
      .all();
    rec.add({
      metric: 'ledger invariant problems after the run',
      value: problems.length,
      unit: '',
      target: '0',
      isMet: problems.length === 0,
      note: `withdrawal statuses: ${statuses.map((s) => `${s.status} ${s.n}`).join(', ')}${problems.length > 0 ? `; ${problems.slice(0, 3).join('; ')}` : ''}`,
    });
  } finally {
    db.close();
  }
  rec.note(
    'Sandbox in its own process at 20 ms blocks; autocannon signs every request (fresh nonce, body hash) in the bench process; each signed request also stores its nonce durably.',
  );
}
