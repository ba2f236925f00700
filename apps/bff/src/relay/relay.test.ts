import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import {
  openEvents,
  startBff,
  startSandbox,
  waitFor,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';

let sandbox: SandboxProcess;
let bff: BffInstance;
let treasury: Browser;
let support: Browser;

async function faults(patch: Record<string, unknown>): Promise<void> {
  const response = await sandbox.control(
    'PUT',
    `/sandbox/orgs/${bff.credentials.orgId}/faults`,
    patch,
  );
  expect(response.status).toBe(200);
}

async function createAccounts(count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await bff.call('POST', '/bff/api/v1/ledger/accounts', {
      browser: treasury,
      body: { name: `${prefix} ${i}` },
    });
    expect(response.status).toBe(201);
    ids.push((response.json as { id: string }).id);
  }
  return ids;
}

/** Event ids of account.created events for the given account ids, from the BFF's store. */
function eventIdsFor(accountIds: string[]): string[] {
  return accountIds.map((accountId) => {
    const row = bff.db
      .prepare("SELECT id FROM events WHERE type = 'account.created' AND account_id = ?")
      .get(accountId) as { id: string } | undefined;
    if (!row) throw new Error(`no event for ${accountId}`);
    return row.id;
  });
}

function accountIdsOf(frames: { kind: string; [key: string]: unknown }[]): string[] {
  return frames
    .filter((f) => f.kind === 'event')
    .map((f) => (f.event as { data: { accountId?: string } }).data.accountId ?? '');
}

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 50 });
  bff = await startBff({ sandbox });
  treasury = await bff.login('treasury');
  support = await bff.login('support');
  await waitFor(async () => Promise.resolve(bff.bff.relay.state === 'connected'));
}, 60_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

describe('browser event socket', () => {
  it('refuses an upgrade without a session or from another origin', async () => {
    await expect(openEvents(bff, { cookie: null, csrf: null })).rejects.toThrow(/401/);
    await expect(openEvents(bff, support, { origin: 'http://evil.example' })).rejects.toThrow(
      /403/,
    );
  });

  it('relays each event once with the resources it invalidates, with the duplicate switch on', async () => {
    await faults({ duplicateEventRate: 1, envelope: 'both' });
    const socket = await openEvents(bff, support);
    expect(socket.frames[0]).toEqual({ kind: 'upstream', state: 'connected' });
    const ids = await createAccounts(5, 'Dup');
    await waitFor(async () =>
      Promise.resolve(accountIdsOf(socket.frames).filter((id) => ids.includes(id)).length >= 5),
    );
    await new Promise((r) => setTimeout(r, 300));
    const relayed = accountIdsOf(socket.frames).filter((id) => ids.includes(id));
    expect(relayed).toEqual(ids);
    expect(new Set(socket.eventIds()).size).toBe(socket.eventIds().length);
    const frame = socket.frames.find(
      (f) =>
        f.kind === 'event' &&
        (f.event as { data: { accountId: string } }).data.accountId === ids[0],
    );
    expect(frame).toMatchObject({
      kind: 'event',
      event: {
        id: expect.any(String),
        type: 'account.created',
        occurredAt: expect.any(String),
        correlationId: expect.any(String),
        orgId: bff.credentials.orgId,
      },
      invalidates: expect.arrayContaining([
        '/api/v1/ledger/accounts',
        `/api/v1/ledger/accounts/${ids[0]}`,
      ]),
    });
    socket.ws.close();
    await faults({ duplicateEventRate: null, envelope: null });
  });

  it.each(['both', 'mvp'] as const)(
    'loses nothing while the sandbox keeps dropping the upstream socket (%s envelope)',
    async (envelope) => {
      await faults({ dropSocketEveryMs: 120, envelope });
      const socket = await openEvents(bff, support);
      const ids: string[] = [];
      for (let round = 0; round < 6; round += 1) {
        ids.push(...(await createAccounts(3, `Drop ${round}`)));
        await new Promise((r) => setTimeout(r, 70));
      }
      await waitFor(
        async () => Promise.resolve(ids.every((id) => accountIdsOf(socket.frames).includes(id))),
        20_000,
      );
      await faults({ dropSocketEveryMs: null, envelope: null });
      const relayed = accountIdsOf(socket.frames).filter((id) => ids.includes(id));
      expect(relayed.sort()).toEqual([...ids].sort());
      expect(new Set(socket.eventIds()).size).toBe(socket.eventIds().length);
      const states = socket.frames.filter((f) => f.kind === 'upstream').map((f) => f.state);
      expect(states).toContain('reconnecting');
      socket.ws.close();
    },
    40_000,
  );

  it('replays what a browser missed from ?after=<event id>, then streams live', async () => {
    const first = await createAccounts(1, 'Before');
    await waitFor(async () =>
      Promise.resolve(bff.db.prepare('SELECT 1 FROM events WHERE account_id = ?').get(first[0])),
    );
    const [lastSeen] = eventIdsFor(first);
    const missed = await createAccounts(3, 'Missed');
    await waitFor(async () =>
      Promise.resolve(bff.db.prepare('SELECT 1 FROM events WHERE account_id = ?').get(missed[2])),
    );
    const socket = await openEvents(bff, support, { after: lastSeen ?? '' });
    expect(accountIdsOf(socket.frames)).toEqual(missed);
    const live = await createAccounts(1, 'Live');
    await waitFor(async () => Promise.resolve(accountIdsOf(socket.frames).includes(live[0] ?? '')));
    expect(accountIdsOf(socket.frames)).toEqual([...missed, ...live]);
    socket.ws.close();
  });

  it('cuts off a slow browser with 4008 "resume" while others keep receiving', async () => {
    const small = await startBff({ sandbox, relay: { maxBufferedBytes: 64 * 1024 } });
    try {
      const browser = await small.login('support');
      const slow = await openEvents(small, browser);
      const fast = await openEvents(small, browser);
      (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      // Flood until the paused socket's kernel buffers fill and the hub cuts it off.
      const payload = 'x'.repeat(16 * 1024);
      let sent = 0;
      while (small.bff.hub.size === 2 && sent < 20_000) {
        small.bff.hub.broadcast(
          JSON.stringify({ kind: 'event', event: { id: `load-${sent}`, payload } }),
        );
        sent += 1;
        if (sent % 10 === 0) await new Promise((r) => setTimeout(r, 1));
      }
      expect(small.bff.hub.size).toBe(1);
      for (let i = 0; i < 10; i += 1) {
        small.bff.hub.broadcast(
          JSON.stringify({ kind: 'event', event: { id: `load-${sent}`, payload } }),
        );
        sent += 1;
      }
      await waitFor(async () => Promise.resolve(fast.eventIds().length === sent), 20_000);
      (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
      expect(await slow.closed).toEqual({ code: 4008, reason: 'resume' });
      expect(slow.eventIds().length).toBeLessThan(sent);
      fast.ws.close();
    } finally {
      await small.close();
    }
  }, 40_000);

  it('closes the sockets of a session at logout', async () => {
    const own = await bff.login('support');
    const socket = await openEvents(bff, own);
    expect((await bff.call('POST', '/bff/auth/logout', { browser: own })).status).toBe(204);
    expect(await socket.closed).toEqual({ code: 4001, reason: 'session ended' });
  });
});

describe('upstream validation', () => {
  let fake: Server;
  let wss: WebSocketServer;
  let fakeUrl = '';

  beforeAll(async () => {
    wss = new WebSocketServer({ noServer: true });
    fake = createServer();
    fake.on('upgrade', (req, socket, head) => {
      wss.handleUpgrade(req, socket, head, (ws) => {
        wss.emit('connection', ws, req);
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    fakeUrl = `ws://127.0.0.1:${(fake.address() as AddressInfo).port}/v1/ws`;
  });

  afterAll(async () => {
    for (const client of wss.clients) client.terminate();
    fake.closeAllConnections();
    await new Promise((r) => fake.close(r));
  });

  it('never relays a foreign-org or malformed event, keeps it aside with its reason, and relays the valid one', async () => {
    const isolated = await startBff({ sandbox, env: { UPSTREAM_WS_URL: fakeUrl } });
    try {
      const orgId = isolated.credentials.orgId;
      const event = (id: string, org: string, extra: Record<string, unknown> = {}) =>
        JSON.stringify({
          type: 'EVENT',
          event: 'account.created',
          eventId: id,
          version: 1,
          orgId: org,
          occurredAt: '2026-01-01T00:00:00.000Z',
          correlationId: 'c',
          data: {
            accountId: `acc-${id}`,
            orgId: org,
            name: 'x',
            externalId: null,
            createdAt: '2026-01-01T00:00:00.000Z',
            requestId: 'r',
            idempotencyKey: null,
          },
          ...extra,
        });
      await waitFor(async () => Promise.resolve(wss.clients.size === 1));
      const browser = await isolated.login('support');
      const socket = await openEvents(isolated, browser);
      for (const client of wss.clients) {
        for (const frame of [
          JSON.stringify({ type: 'SYSTEM_CONNECTED' }),
          event('foreign-1', 'another-org'),
          '{"type":"EVENT",',
          event('no-data', orgId, { data: { accountId: 'acc-no-data' } }),
          event('good-1', orgId),
        ]) {
          client.send(frame);
        }
      }
      await waitFor(async () => Promise.resolve(socket.eventIds().includes('good-1')));
      await new Promise((r) => setTimeout(r, 100));
      expect(socket.eventIds()).toEqual(['good-1']);
      const rejected = isolated.db.prepare('SELECT reason FROM rejected_events ORDER BY id').all();
      expect(rejected).toEqual([
        { reason: 'foreign-org' },
        { reason: 'not-json' },
        { reason: 'invalid-data' },
      ]);
      expect(isolated.bff.relay.rejectedCount).toBe(3);
      socket.ws.close();
    } finally {
      await isolated.close();
    }
  });
});
