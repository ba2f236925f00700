import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { median, type GroupRecorder } from '../lib/report';
import { sleep, type Child } from '../lib/procs';
import { cloneTransactions } from '../lib/seed-transactions';
import { fetchWithOperation, makeReady, startBff, startSandbox } from '../lib/stack';
import type { BenchContext } from '../run';

/**
 * Group 6: the CSV export of every transaction of a wallet (`GET /bff/export/transactions.csv`),
 * streamed by the BFF process through every upstream page. The figure the issue sets is the
 * BFF's memory: its RSS at the peak of the export minus its RSS at idle just before, which must
 * stay under 100 MiB for 100,000 rows. The rows are one real deposit cloned in the sandbox
 * database; the export is read here as fast as it comes and its data rows are counted, so a
 * short export cannot pass for a lean one.
 */

const FULL_ROWS = 100_000;
const QUICK_ROWS = 20_000;
const TARGET_MIB = 100;
/** RSS is sampled this often during the export (from /proc, no effect on the BFF). */
const SAMPLE_MS = 100;

/** The BFF's RSS at rest: the median of a few samples a moment after the last setup call. */
async function idleRss(server: Child): Promise<number> {
  await sleep(1_000);
  const samples: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const value = server.rssMb();
    if (value !== null) samples.push(value);
    await sleep(200);
  }
  const value = median(samples);
  if (value === null) throw new Error('could not read the BFF RSS');
  return value;
}

export async function runExports(ctx: BenchContext, rec: GroupRecorder): Promise<void> {
  const rows = ctx.isQuick ? QUICK_ROWS : FULL_ROWS;
  const sandbox = await startSandbox(ctx.workDir, { blockMs: 20, name: 'exports-sandbox' });
  const bff = await startBff(ctx.workDir, sandbox, { name: 'exports-bff' });

  // One real deposit through the BFF, cloned `rows - 1` times in the sandbox database.
  await makeReady(bff);
  const treasury = await bff.login('treasury');
  const admin = await bff.login('admin');
  const support = await bff.login('support');
  const account = await bff.call('POST', '/bff/api/v1/ledger/accounts', treasury, {
    name: 'Bench export',
  });
  const accountId = (account.json as { id: string }).id;
  const wallet = await fetchWithOperation(
    bff,
    treasury,
    '/bff/api/v1/wallets',
    { chain: 'tron:nile', accountId },
    `bench-export-wallet-${accountId}`,
  );
  const walletId = (wallet.json as { id: string }).id;
  const deposit = await bff.call('POST', '/bff/sandbox/deposits', admin, {
    walletId,
    asset: 'TRX',
    amountAtomic: '2500000',
  });
  const templateId = (deposit.json as { transactionId: string }).transactionId;
  for (let i = 0; i < 200; i += 1) {
    const tx = await bff.call('GET', `/bff/api/v1/transactions/${templateId}`, treasury);
    if ((tx.json as { status?: string }).status === 'CONFIRMED') break;
    await sleep(100);
  }
  const seeding = performance.now();
  cloneTransactions(sandbox.dataDir, templateId, rows);
  rec.note(
    `${rows.toLocaleString()} transactions of one wallet: one real deposit, cloned ${(rows - 1).toLocaleString()} times in the sandbox database in ${(performance.now() - seeding).toFixed(0)} ms.`,
  );

  const idle = await idleRss(bff.child);
  let peak = idle;
  const sampler = setInterval(() => {
    const value = bff.child.rssMb();
    if (value !== null) peak = Math.max(peak, value);
  }, SAMPLE_MS);

  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  try {
    const response = await request(
      `${bff.url}/bff/export/transactions.csv?walletId=${encodeURIComponent(walletId)}`,
      {
        headers: { origin: bff.url, cookie: support.cookie },
        signal: AbortSignal.timeout(ctx.isQuick ? 60_000 : 300_000),
      },
    );
    const status = response.statusCode;
    if (status !== 200) {
      // The error envelope (code, message, requestId) says why; the BFF log has the rest.
      throw new Error(
        `export answered ${String(status)}: ${await response.body.text()}\n${readFileSync(bff.child.logFile, 'utf8').slice(-2_000)}`,
      );
    }
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer;
      bytes += buffer.length;
      // Every record ends in CRLF; no transaction field holds a line break.
      for (let i = buffer.indexOf(10); i !== -1; i = buffer.indexOf(10, i + 1)) lines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const last = bff.child.rssMb();
  if (last !== null) peak = Math.max(peak, last);
  const exported = lines - 1;
  const delta = peak - idle;

  rec.add({
    metric: `rows exported (transactions.csv, one wallet)`,
    value: exported,
    unit: 'rows',
    target: `= ${rows.toLocaleString()}`,
    isMet: exported === rows,
  });
  rec.add({
    metric: `BFF RSS above idle during the export (peak - idle)`,
    value: delta,
    unit: 'MiB',
    reference: { name: 'idle RSS', value: idle },
    target: `< ${String(TARGET_MIB)} MiB`,
    isMet: delta < TARGET_MIB,
    note: `idle ${idle.toFixed(1)} MiB, peak ${peak.toFixed(1)} MiB, sampled every ${String(SAMPLE_MS)} ms from /proc/<pid>/status VmRSS.`,
  });
  rec.add({
    metric: 'export throughput',
    value: exported / seconds,
    unit: 'rows/s',
    note: `${(bytes / 2 ** 20).toFixed(1)} MiB of CSV in ${seconds.toFixed(1)} s.`,
  });
}
