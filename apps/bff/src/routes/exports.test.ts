import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditPageSchema, TransactionSchema, listEnvelope } from '@settlement/protocol';
import {
  fundedWallet,
  startBff,
  startSandbox,
  waitFor,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';

const TOTAL = 10_000;
const INJECTIONS = ['=1+2', '@SUM(A1)', '+cmd', '-2+3'];

let sandbox: SandboxProcess;
let bff: BffInstance;
let support: Browser;
let walletId = '';

/** RFC 4180 reader (quoted fields, doubled quotes, CRLF records) for the assertions. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charAt(i);
    if (quoted) {
      if (c === '"' && text.charAt(i + 1) === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text.charAt(i + 1) === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error('CSV does not end with CRLF');
  return records;
}

/**
 * Seeds copies of one real CONFIRMED deposit straight into the sandbox's database, as
 * bench/lib/seed-transactions.ts does (listed, not moving balances): 10,000 rows in seconds.
 */
function cloneTransactions(templateId: string, copies: number) {
  const db = new Database(join(sandbox.dataDir, 'sandbox.db'));
  db.pragma('busy_timeout = 5000');
  try {
    const columns = db
      .prepare<[], { name: string }>('PRAGMA table_info(transactions)')
      .all()
      .map((c) => c.name)
      .filter((name) => name !== 'seq');
    const template = db.prepare('SELECT * FROM transactions WHERE id = ?').get(templateId) as
      Record<string, unknown> | undefined;
    if (!template) throw new Error('no template row');
    const insert = db.prepare(
      `INSERT INTO transactions (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    const startMs = Date.now() - copies * 1000;
    // Short write transactions: the running sandbox writes every block and must never wait on
    // this seed past its busy timeout (one 10,000-row transaction could, on a loaded machine).
    const batch = db.transaction((from: number, to: number) => {
      for (let i = from; i <= to; i += 1) {
        const at = new Date(startMs + i * 1000);
        const row: Record<string, unknown> = {};
        for (const column of columns) row[column] = template[column] ?? null;
        row.id = `${templateId}c${String(i).padStart(5, '0')}`;
        row.tx_hash = i.toString(16).padStart(64, '0');
        row.billing_reference = `BILL-C${String(i).padStart(11, '0')}`;
        row.client_reference = null;
        // A varied amount per row, so the row-for-row comparison checks every amount.
        row.amount_atomic = String(1_000_000 + i * 7);
        row.created_at_ms = at.getTime();
        row.created_at = at.toISOString();
        row.updated_at = at.toISOString();
        insert.run(row);
      }
    });
    for (let from = 1; from <= copies; from += 500) batch(from, Math.min(copies, from + 499));
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20 });
  bff = await startBff({ sandbox });
  const admin = await bff.login('admin');
  const treasury = await bff.login('treasury');
  support = await bff.login('support');
  ({ walletId } = await fundedWallet(bff, admin, treasury));
  for (const [index, clientReference] of INJECTIONS.entries()) {
    const created = await bff.call('POST', '/bff/api/v1/transactions', {
      browser: treasury,
      body: {
        walletId,
        asset: 'TRX',
        toAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        amountAtomic: '1000001',
        clientReference,
      },
      headers: { 'x-operation-id': `export-wd-${index}` },
    });
    expect(created.status, created.text).toBe(201);
  }
  // The comparison is of two reads of a quiescent store: a withdrawal still moving through the
  // chain could change status between the export and the REST read.
  await waitFor(async () => {
    const list = await bff.call('GET', '/bff/api/v1/transactions?type=WITHDRAWAL&limit=50', {
      browser: support,
    });
    const items = (list.json as { items: { status: string }[] }).items;
    return items.length === INJECTIONS.length &&
      items.every((tx) => tx.status === 'CONFIRMED' || tx.status === 'FAILED')
      ? items
      : undefined;
  }, 30_000);
  const deposit = await waitFor(async () => {
    const list = await bff.call('GET', '/bff/api/v1/transactions?type=DEPOSIT&status=CONFIRMED', {
      browser: support,
    });
    return (list.json as { items: { id: string }[] }).items[0];
  }, 30_000);
  cloneTransactions(deposit.id, TOTAL - 1 - INJECTIONS.length);
}, 120_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

const pageSchema = listEnvelope(TransactionSchema);

async function restList(filter: string) {
  const rows = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=200${filter}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await bff.call('GET', `/bff/api/v1/transactions?${query}`, {
      browser: support,
    });
    const page = pageSchema.parse(response.json);
    rows.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows;
}

describe('GET /bff/export/transactions.csv', () => {
  it('exports all 10,000 transactions equal to the REST list row for row, formulas inert', async () => {
    const response = await bff.call('GET', '/bff/export/transactions.csv', { browser: support });
    expect(response.status, response.text.slice(0, 500)).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...records] = parseCsv(response.text);
    expect(header?.slice(0, 9)).toEqual([
      'id',
      'createdAt',
      'updatedAt',
      'type',
      'status',
      'chain',
      'asset',
      'amount',
      'amountAtomic',
    ]);
    const rest = await restList('');
    expect(rest).toHaveLength(TOTAL);
    expect(records).toHaveLength(TOTAL);
    const col = (name: string) => header?.indexOf(name) ?? -1;
    for (const [i, tx] of rest.entries()) {
      const record = records[i] ?? [];
      expect(record[col('id')]).toBe(tx.id);
      expect(record[col('status')]).toBe(tx.status);
      expect(record[col('amountAtomic')]).toBe(tx.amountAtomic);
      // TRX has 6 decimals in the catalog: the exact decimal of the atomic amount.
      const whole = BigInt(tx.amountAtomic) / 1_000_000n;
      const fraction = (BigInt(tx.amountAtomic) % 1_000_000n).toString().padStart(6, '0');
      expect(record[col('amount')]).toBe(`${whole}.${fraction}`.replace(/\.?0+$/, ''));
    }
    const references = records.map((r) => r[col('clientReference')]);
    for (const injected of INJECTIONS) {
      expect(references).toContain(`'${injected}`);
      expect(references).not.toContain(injected);
    }
  }, 120_000);

  it('takes the list filters from the query and refuses a name the list does not know', async () => {
    const response = await bff.call(
      'GET',
      `/bff/export/transactions.csv?type=WITHDRAWAL&walletId=${walletId}`,
      { browser: support },
    );
    expect(response.status, response.text.slice(0, 500)).toBe(200);
    const [, ...records] = parseCsv(response.text);
    expect(records.map((r) => r[0])).toEqual(
      (await restList(`&type=WITHDRAWAL&walletId=${walletId}`)).map((t) => t.id),
    );
    expect(records).toHaveLength(INJECTIONS.length);
    const bad = await bff.call('GET', '/bff/export/transactions.csv?color=red', {
      browser: support,
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'INVALID_QUERY_PARAMETER' });
  }, 60_000);
});

describe('GET /bff/audit and audit.csv', () => {
  it('holds snapshotAt while paging, filters by operator and action, and exports the same rows', async () => {
    const first = await bff.call('GET', '/bff/audit?limit=2', { browser: support });
    expect(first.status, first.text).toBe(200);
    const page1 = AuditPageSchema.parse(first.json);
    expect(page1.total).toBeGreaterThan(2);
    // A new audited action after the snapshot must not shift page 2.
    const treasury = await bff.login('treasury');
    await bff.call('POST', '/bff/auth/logout', { browser: treasury });
    const second = await bff.call(
      'GET',
      `/bff/audit?limit=2&page=2&snapshotAt=${encodeURIComponent(page1.snapshotAt)}`,
      { browser: support },
    );
    const page2 = AuditPageSchema.parse(second.json);
    expect(page2.total).toBe(page1.total);
    expect(page2.snapshotAt).toBe(page1.snapshotAt);
    const ids = [...page1.items, ...page2.items].map((a) => a.id);
    expect(new Set(ids).size).toBe(4);
    expect(Math.min(...page1.items.map((a) => a.id))).toBeGreaterThan(
      Math.max(...page2.items.map((a) => a.id)),
    );

    const logins = AuditPageSchema.parse(
      (
        await bff.call('GET', '/bff/audit?operator=treasury&action=login&limit=200', {
          browser: support,
        })
      ).json,
    );
    expect(logins.items.length).toBeGreaterThan(0);
    expect(logins.items.every((a) => a.operator === 'treasury' && a.action === 'login')).toBe(true);

    const csv = await bff.call('GET', '/bff/export/audit.csv?operator=treasury&action=login', {
      browser: support,
    });
    const [, ...records] = parseCsv(csv.text);
    expect(records.map((r) => Number(r[0])).sort((a, b) => a - b)).toEqual(
      logins.items.map((a) => a.id).sort((a, b) => a - b),
    );

    const bad = await bff.call('GET', '/bff/audit?limit=500', { browser: support });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'INVALID_QUERY_PARAMETER' });
  });
});
