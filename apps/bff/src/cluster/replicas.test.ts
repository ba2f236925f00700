import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  fundedWallet,
  openEvents,
  startSandbox,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';
import { usePostgres, type TestPostgres } from '../test-support/postgres';
import {
  seedCluster,
  startReplica,
  type Cluster,
  type ReplicaProcess,
} from '../test-support/replicas';

/**
 * Two BFF replicas as real processes on one PostgreSQL and the real sandbox (DESIGN.md,
 * "Running beyond one machine"). The leader is killed with SIGKILL last.
 */

/** A valid TRON address that is no wallet of the organization (the demo policy asks an admin). */
const EXTERNAL = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

let postgres: TestPostgres;
let sandbox: SandboxProcess;
let dataDir: string;
let cluster: Cluster;
let a: ReplicaProcess;
let b: ReplicaProcess;
const extra: ReplicaProcess[] = [];

/** The harness's funding helper speaks only `call`: a replica process answers it the same way. */
function asInstance(replica: ReplicaProcess): BffInstance {
  return {
    call: (...args: Parameters<ReplicaProcess['call']>) => replica.call(...args),
  } as unknown as BffInstance;
}

async function query<T extends pg.QueryResultRow>(
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  postgres = await usePostgres();
  sandbox = await startSandbox({ blockMs: 50 });
  dataDir = mkdtempSync(join(tmpdir(), 'bff-cluster-'));
  cluster = seedCluster({ sandbox, databaseUrl: await postgres.createDatabase(), dataDir });
  a = await startReplica(cluster, 'A');
  b = await startReplica(cluster, 'B');
  await vi.waitFor(() => {
    expect([a, b].filter((r) => r.isLeader())).toHaveLength(1);
  }, 15_000);
}, 120_000);

afterAll(async () => {
  await Promise.all([a, b, ...extra].map((r) => r.kill('SIGTERM')));
  await sandbox.stop();
  await postgres.release();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('two replicas on one PostgreSQL', { timeout: 90_000 }, () => {
  let admin: Browser;
  let treasury: Browser;
  let walletId: string;
  let accountId: string;

  it('signs in on A and works with the same cookie on B; signing out on B closes the session\u2019s socket on A', async () => {
    const support = await a.login('support');
    const me = await b.call('GET', '/bff/auth/me', { browser: support });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ operator: { username: 'support' } });
    const socket = await openEvents(a, support);
    const out = await b.call('POST', '/bff/auth/logout', { browser: support });
    expect(out.status).toBeLessThan(300);
    expect(await socket.closed).toMatchObject({ code: 4001 });
    expect((await a.call('GET', '/bff/auth/me', { browser: support })).status).toBe(401);
  });

  it('shows a withdrawal sent through the leader live on a browser socket of the other replica', async () => {
    admin = await a.login('admin');
    treasury = await a.login('treasury');
    ({ walletId, accountId } = await fundedWallet(asInstance(a), admin, treasury));
    // An internal transfer (to another wallet of the organization): the demo policy allows it.
    const target = await b.call('POST', '/bff/api/v1/wallets', {
      browser: treasury,
      body: { chain: 'tron:nile', accountId },
      headers: { 'x-operation-id': 'cluster-target-wallet' },
    });
    expect(target.status).toBe(201);
    // The browser is on the replica that does not hold the upstream stream: it hears via NOTIFY.
    const follower = a.isLeader() ? b : a;
    const sender = follower === a ? b : a;
    const support = await follower.login('support');
    const socket = await openEvents(follower, support);
    const sent = await sender.call('POST', '/bff/api/v1/transactions', {
      browser: treasury,
      body: {
        walletId,
        asset: 'TRX',
        toAddress: (target.json as { address: string }).address,
        amountAtomic: '1000000',
      },
      headers: { 'x-operation-id': 'cluster-withdrawal-1' },
    });
    expect(sent.status, sent.text).toBe(201);
    const transactionId = (sent.json as { id: string }).id;
    await vi.waitFor(() => {
      const mine = socket.frames.filter(
        (f) =>
          f.kind === 'event' &&
          (f.event as { data: { transactionId?: string } }).data.transactionId === transactionId,
      );
      expect(mine.length).toBeGreaterThan(0);
    }, 20_000);
    socket.ws.close();
  });

  it('sends the same idempotent operation, arriving at both at once, upstream once', async () => {
    const account = await a.call('POST', '/bff/api/v1/ledger/accounts', {
      browser: treasury,
      body: { name: 'Same operation' },
    });
    const sameAccount = (account.json as { id: string }).id;
    const results = await Promise.all(
      [a, b, a, b].map((replica) =>
        replica.call('POST', '/bff/api/v1/wallets', {
          browser: treasury,
          body: { chain: 'tron:nile', accountId: sameAccount },
          headers: { 'x-operation-id': 'cluster-same-wallet' },
        }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created.length, results.map((r) => r.text).join('\n')).toBeGreaterThan(0);
    // A duplicate still in flight on the other replica is told so, never sent again.
    for (const other of results.filter((r) => r.status !== 201)) {
      expect(other.status, other.text).toBe(409);
    }
    expect(new Set(created.map((r) => (r.json as { id: string }).id)).size).toBe(1);
    // The upstream's own list: one wallet in the account.
    const wallets = await b.call('GET', `/bff/api/v1/ledger/accounts/${sameAccount}/wallets`, {
      browser: treasury,
    });
    expect(wallets.status, wallets.text).toBe(200);
    expect((wallets.json as { items: unknown[] }).items).toHaveLength(1);
  });

  it('creates one upstream transaction under 20 concurrent final approvals split across both replicas', async () => {
    const requested = await a.call('POST', '/bff/api/v1/transactions', {
      browser: treasury,
      body: { walletId, asset: 'TRX', toAddress: EXTERNAL, amountAtomic: '2000000' },
      headers: { 'x-operation-id': 'cluster-approval-1' },
    });
    expect(requested.status, requested.text).toBe(202);
    const { id, clientReference } = (
      requested.json as { withdrawalRequest: { id: string; clientReference: string } }
    ).withdrawalRequest;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).call('POST', `/bff/withdrawal-requests/${id}/approve`, {
          browser: admin,
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const transactionIds = new Set(
      answers.map((r) => (r.json as { transactionId: string }).transactionId),
    );
    expect(transactionIds.size).toBe(1);
    const upstream = await b.call(
      'GET',
      `/bff/api/v1/transactions?clientReference=${clientReference}`,
      {
        browser: admin,
      },
    );
    expect((upstream.json as { items: unknown[] }).items).toHaveLength(1);
  });

  it('loses and duplicates no event at a browser when the leader is SIGKILLed while events flow, and the survivor leads within 5 s', async () => {
    const leader = a.isLeader() ? a : b;
    const survivor = leader === a ? b : a;
    const support = await survivor.login('support');
    const onSurvivor = await openEvents(survivor, support);
    const onLeader = await openEvents(leader, support);
    const accounts: string[] = [];
    const create = async (i: number) => {
      const response = await survivor.call('POST', '/bff/api/v1/ledger/accounts', {
        browser: treasury,
        body: { name: `flow ${i}` },
      });
      expect(response.status).toBe(201);
      accounts.push((response.json as { id: string }).id);
    };
    for (let i = 0; i < 10; i += 1) await create(i);
    const accountEvents = (frames: { kind: string; [key: string]: unknown }[]) =>
      frames
        .filter(
          (f) => f.kind === 'event' && (f.event as { type: string }).type === 'account.created',
        )
        .map((f) => (f.event as { data: { accountId: string } }).data.accountId)
        .filter((id) => accounts.includes(id));
    // Killed while events flow: its browser has some of them, and resumes from the last it has
    // (on a busy machine the ten creations could otherwise end before the first event reached it,
    // and a browser with no event has no position to resume from).
    await vi.waitFor(() => {
      expect(accountEvents(onLeader.frames).length).toBeGreaterThan(0);
    }, 10_000);
    const killedAt = Date.now();
    await leader.kill('SIGKILL');
    for (let i = 10; i < 30; i += 1) await create(i);

    await vi.waitFor(() => {
      expect(new Set(accountEvents(onSurvivor.frames)).size).toBe(accounts.length);
    }, 20_000);
    // Once each, and in the order the store committed them.
    expect(accountEvents(onSurvivor.frames)).toHaveLength(accounts.length);
    const ids = onSurvivor.eventIds();
    expect(new Set(ids).size).toBe(ids.length);
    const stored = (await query<{ id: string }>('SELECT id FROM events ORDER BY seq')).map(
      (r) => r.id,
    );
    expect(stored.filter((id) => ids.includes(id))).toEqual(ids);

    // The survivor's log is written in batches (up to 200 ms late): wait for its line.
    const tookOver = await vi.waitFor(() => {
      const line = survivor.lines
        .map(
          (text) =>
            JSON.parse(text.startsWith('{') ? text : '{}') as { msg?: string; time?: number },
        )
        .find((entry) => entry.msg === 'took the upstream lead' && (entry.time ?? 0) >= killedAt);
      expect(line?.time).toBeDefined();
      return line;
    }, 5_000);
    expect((tookOver?.time ?? Infinity) - killedAt).toBeLessThan(5_000);

    // The browser whose replica died reconnects to the survivor from its last event.
    await onLeader.closed;
    const last = onLeader.eventIds().at(-1);
    const resumed = await openEvents(survivor, support, last === undefined ? {} : { after: last });
    await vi.waitFor(() => {
      const seen = [...accountEvents(onLeader.frames), ...accountEvents(resumed.frames)];
      expect(new Set(seen).size).toBe(accounts.length);
      expect(seen).toHaveLength(accounts.length);
    }, 20_000);
    onSurvivor.ws.close();
    resumed.ws.close();
  });
});
