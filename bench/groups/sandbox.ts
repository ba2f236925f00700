import { join } from 'node:path';
import Database from 'better-sqlite3';
import { checkLedgerInvariants } from '@settlement/sandbox/ledger';
import { load } from '../lib/load';
import { createBenchOrg, createWallet, makeOrgReady } from '../lib/org';
import { sleep } from '../lib/procs';
import type { GroupRecorder } from '../lib/report';
import { startSandbox } from '../lib/stack';
import type { BenchContext } from '../run';

/**
 * Group 4: the sandbox process alone, fast blocks (20 ms): signed GET/s and POST/s (ledger
 * accounts; wallets with a new idempotency key each, and replays of one key), then a burst of
 * withdrawals processed end to end (reserve, Co-Signer claim and signature, broadcast, 19
 * confirmations) and the ledger invariants checked on the database afterwards.
 */

const EXTERNAL_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

export async function runSandbox(ctx: BenchContext, rec: GroupRecorder): Promise<void> {
  const durationS = ctx.isQuick ? 1 : 5;
  const withdrawals = ctx.isQuick ? 60 : 400;
  const connections = 16;
  const sandbox = await startSandbox(ctx.workDir, { blockMs: 20, name: 'bench-sandbox' });
  const org = await createBenchOrg(sandbox, 'Bench sandbox org');
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

  // Withdrawals end to end: accepted in a burst, then processed by blocks and the Co-Signer.
  const started = performance.now();
  let next = 0;
  let accepted = 0;
  const refused: string[] = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < withdrawals) {
        next += 1;
        const body = JSON.stringify({
          walletId: funded.walletId,
          asset: 'TRX',
          toAddress: EXTERNAL_ADDRESS,
          amountAtomic: '1000000',
        });
        const response = await org.client.send('POST', '/api/v1/transactions', {
          body: Buffer.from(body, 'utf8'),
          idempotencyKey: `bench-wd-${started}-${next}`,
        });
        if (response.status === 201) accepted += 1;
        else refused.push(String(response.status));
      }
    }),
  );
  const acceptedAt = performance.now();
  const deadline = Date.now() + (ctx.isQuick ? 30_000 : 90_000);
  let pending = accepted;
  while (pending > 0 && Date.now() < deadline) {
    const page = await org.client.listTransactions({
      walletId: funded.walletId,
      type: 'WITHDRAWAL',
      status: 'PENDING',
      limit: 200,
    });
    pending = page.items.length;
    if (pending > 0) await sleep(50);
  }
  const doneAt = performance.now();
  rec.add({
    metric: `withdrawals accepted (POST /api/v1/transactions, ${withdrawals})`,
    value: (accepted * 1000) / (acceptedAt - started),
    unit: 'tx/s',
    ...(refused.length > 0 ? { note: `refused: ${refused.slice(0, 5).join(', ')}` } : {}),
  });
  rec.add({
    metric: 'withdrawals processed end to end (accepted -> CONFIRMED)',
    value: pending === 0 ? (accepted * 1000) / (doneAt - started) : null,
    unit: 'tx/s',
    note: `${accepted} withdrawals, ${((doneAt - started) / 1000).toFixed(1)} s from the first POST to the last CONFIRMED at 20 ms blocks (19 confirmations = 380 ms minimum each)${pending > 0 ? `; ${pending} still PENDING at the deadline` : ''}`,
  });

  // Invariants on the database itself, after a clean stop.
  await sandbox.child.stop();
  const db = new Database(join(sandbox.dataDir, 'sandbox.db'), { readonly: true });
  try {
    const problems = checkLedgerInvariants(db);
    const statuses = db
      .prepare<[], { status: string; n: number }>(
        "SELECT status, COUNT(*) AS n FROM transactions WHERE type = 'WITHDRAWAL' GROUP BY status",
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
