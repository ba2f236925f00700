import Database from 'better-sqlite3';
import { join } from 'node:path';
import { request } from 'undici';
import { connectEventStream } from '@settlement/client';
import { transactionListIndex, transactionListQuery } from '@settlement/sandbox/ledger';
import type { BenchOrg } from './org';
import { sleep } from './procs';
import { percentile } from './report';

/**
 * The two probes of the sandbox group. Withdrawals end to end: a burst of signed POSTs, each
 * followed until its `transaction.confirmed` arrives over the sandbox's own signed WebSocket
 * (so "processed" includes the events, and nothing polls the server while it works). Filtered
 * list pages: one request at a time (latency, not throughput), first pages and pages deep in
 * the cursor chain, for filters that cover every index the list can choose.
 */

const EXTERNAL_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

type EndToEnd = {
  accepted: number;
  refused: string[];
  acceptedPerS: number;
  /** Withdrawals from the first POST to the last transaction.confirmed. */
  perS: number | null;
  /** POST answered -> transaction.confirmed received, per withdrawal. */
  p50Ms: number | null;
  p99Ms: number | null;
  eventsPerWithdrawal: number;
  pending: number;
  seconds: number;
};

export async function withdrawalsEndToEnd(
  sandboxUrl: string,
  org: BenchOrg,
  walletId: string,
  options: { count: number; connections: number; deadlineMs: number; label: string },
): Promise<EndToEnd> {
  const acceptedAt = new Map<string, number>();
  const confirmedAt = new Map<string, number>();
  const early = new Map<string, number>();
  let events = 0;
  const stream = connectEventStream({
    wsUrl: `${sandboxUrl.replace(/^http/, 'ws')}/v1/ws`,
    signer: org.signer,
    expectedOrgId: org.orgId,
    onEvent: (event) => {
      const id = event.data.transactionId;
      if (typeof id !== 'string') return;
      events += 1;
      if (event.type !== 'transaction.confirmed') return;
      // The confirmation may, in principle, beat the POST's answer to this process.
      if (acceptedAt.has(id)) confirmedAt.set(id, performance.now());
      else early.set(id, performance.now());
    },
  });
  try {
    for (let i = 0; i < 200 && stream.state !== 'open'; i += 1) await sleep(25);
    if (stream.state !== 'open') throw new Error('the event stream did not open');
    const started = performance.now();
    let next = 0;
    const refused: string[] = [];
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (next < options.count) {
          next += 1;
          const response = await org.client.send('POST', '/api/v1/transactions', {
            body: Buffer.from(
              JSON.stringify({
                walletId,
                asset: 'TRX',
                toAddress: EXTERNAL_ADDRESS,
                amountAtomic: '1000000',
              }),
              'utf8',
            ),
            idempotencyKey: `bench-wd-${options.label}-${String(started)}-${String(next)}`,
          });
          if (response.status !== 201) {
            refused.push(String(response.status));
            continue;
          }
          const { id } = JSON.parse(Buffer.from(response.bodyBytes).toString('utf8')) as {
            id: string;
          };
          const at = performance.now();
          acceptedAt.set(id, at);
          const beat = early.get(id);
          if (beat !== undefined) confirmedAt.set(id, Math.max(beat, at));
        }
      }),
    );
    const acceptedDone = performance.now();
    const deadline = Date.now() + options.deadlineMs;
    while (confirmedAt.size < acceptedAt.size && Date.now() < deadline) await sleep(20);
    const last = Math.max(acceptedDone, ...confirmedAt.values());
    const latencies = [...confirmedAt].map(([id, at]) => at - (acceptedAt.get(id) ?? at));
    const pending = acceptedAt.size - confirmedAt.size;
    return {
      accepted: acceptedAt.size,
      refused,
      acceptedPerS: (acceptedAt.size * 1000) / (acceptedDone - started),
      perS: pending === 0 ? (acceptedAt.size * 1000) / (last - started) : null,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      eventsPerWithdrawal: acceptedAt.size > 0 ? events / acceptedAt.size : 0,
      pending,
      seconds: (last - started) / 1000,
    };
  } finally {
    await stream.close();
  }
}

type ListCase = {
  name: string;
  filters: Record<string, string>;
  limit: number;
  /** Pages read per sample, following nextCursor from the first. */
  pages: number;
};

type ListResult = {
  name: string;
  /** The CSV export's way of paging (200 rows a page, long cursor chains). */
  isExportPaging: boolean;
  index: string;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  items: number;
  samples: number[];
};

/** The filters a console sends, one case per index the list can choose, plus combinations. */
export function listCases(ids: {
  walletId: string;
  accountId: string;
  from: string;
  to: string;
}): ListCase[] {
  const c = (name: string, filters: Record<string, string>, limit = 50, pages = 3): ListCase => ({
    name,
    filters,
    limit,
    pages,
  });
  const { walletId, accountId } = ids;
  return [
    c('newest first (no filter)', {}),
    c('status=FAILED', { status: 'FAILED' }),
    c('type=INTERNAL_TRANSFER', { type: 'INTERNAL_TRANSFER' }),
    c('asset=USDT', { asset: 'USDT' }),
    c('chain=tron:nile', { chain: 'tron:nile' }),
    c('createdFrom..createdTo (one day)', { createdFrom: ids.from, createdTo: ids.to }),
    c('clientReference (none matches)', { clientReference: 'bench-no-such-reference' }),
    c('walletId', { walletId }),
    c('walletId + status=FAILED', { walletId, status: 'FAILED' }),
    c('walletId + type=DEPOSIT', { walletId, type: 'DEPOSIT' }),
    c('walletId + asset=USDT', { walletId, asset: 'USDT' }),
    c('walletId + type=WITHDRAWAL + status=PENDING', {
      walletId,
      type: 'WITHDRAWAL',
      status: 'PENDING',
    }),
    c('accountId', { accountId }),
    c('accountId + status=FAILED_ON_CHAIN', { accountId, status: 'FAILED_ON_CHAIN' }),
    c('accountId + type=INTERNAL_TRANSFER', { accountId, type: 'INTERNAL_TRANSFER' }),
    c('accountId + asset=USDT', { accountId, asset: 'USDT' }),
    c('accountId + chain=tron:nile', { accountId, chain: 'tron:nile' }),
    c('status=CONFIRMED + type=WITHDRAWAL + asset=TRX + one day', {
      status: 'CONFIRMED',
      type: 'WITHDRAWAL',
      asset: 'TRX',
      createdFrom: ids.from,
      createdTo: ids.to,
    }),
    c('walletId, limit=200 (CSV export paging)', { walletId }, 200, 10),
  ];
}

async function timedGet(
  sandboxUrl: string,
  org: BenchOrg,
  target: string,
): Promise<{ ms: number; items: number; nextCursor: string | null }> {
  const headers = org.sign('GET', target, null);
  const started = performance.now();
  const response = await request(`${sandboxUrl}${target}`, { headers });
  const text = await response.body.text();
  const ms = performance.now() - started;
  if (response.statusCode !== 200) {
    throw new Error(`GET ${target} answered ${String(response.statusCode)}: ${text}`);
  }
  const body = JSON.parse(text) as { items: unknown[]; nextCursor: string | null };
  return { ms, items: body.items.length, nextCursor: body.nextCursor };
}

/** `rounds` samples of each case, each reading `pages` pages along the cursor chain. */
export async function measureLists(
  sandboxUrl: string,
  org: BenchOrg,
  cases: readonly ListCase[],
  rounds: number,
): Promise<ListResult[]> {
  const results: ListResult[] = [];
  for (const listCase of cases) {
    const samples: number[] = [];
    let items = 0;
    for (let round = 0; round < rounds; round += 1) {
      let cursor: string | null = null;
      for (let page = 0; page < listCase.pages; page += 1) {
        const query = new URLSearchParams({ ...listCase.filters, limit: String(listCase.limit) });
        if (cursor !== null) query.set('cursor', cursor);
        const answer = await timedGet(sandboxUrl, org, `/api/v1/transactions?${query.toString()}`);
        samples.push(answer.ms);
        if (round === 0) items += answer.items;
        cursor = answer.nextCursor;
        if (cursor === null) break;
      }
    }
    results.push({
      name: listCase.name,
      isExportPaging: listCase.limit === 200,
      index: transactionListIndex(listCase.filters),
      p50Ms: percentile(samples, 50),
      p99Ms: percentile(samples, 99),
      maxMs: samples.length > 0 ? Math.max(...samples) : null,
      items,
      samples,
    });
  }
  return results;
}

/** EXPLAIN QUERY PLAN of each case's first and next page, on the sandbox's own database. */
export function explainLists(
  sandboxDataDir: string,
  orgId: string,
  cases: readonly ListCase[],
): { name: string; plan: string }[] {
  const db = new Database(join(sandboxDataDir, 'sandbox.db'), { readonly: true });
  try {
    return cases.map((listCase) => {
      const { sql, params } = transactionListQuery(
        orgId,
        listCase.filters,
        { createdAt: '2100-01-01T00:00:00.000Z', seq: Number.MAX_SAFE_INTEGER },
        listCase.limit + 1,
      );
      const plan = db
        .prepare<(string | number)[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((row) => row.detail)
        .join('; ');
      return { name: listCase.name, plan };
    });
  } finally {
    db.close();
  }
}
