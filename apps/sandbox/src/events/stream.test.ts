import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { normalizeEvent } from '@settlement/protocol';
import { restCanonicalString, signWsHandshake, WS_PATH } from '@settlement/protocol/signing';
import { createSandbox } from '../app';
import { appendEvent } from './outbox';
import {
  ADMIN_TOKEN,
  createOrgClient,
  events,
  startHarness,
  waitFor,
  type Harness,
  type OrgClient,
} from '../test-support/sandbox-harness';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});

type Frame = Record<string, unknown>;

type Connection = {
  socket: WebSocket;
  frames: Frame[];
  /** The same frames as the text that arrived. */
  texts: string[];
  closed: Promise<number>;
};

function wsUrl(base: string, query = ''): string {
  return `${base.replace('http', 'ws')}${WS_PATH}${query}`;
}

/** Opens a socket and collects frames; rejects with the HTTP status when the upgrade is refused. */
function connect(
  base: string,
  headers: Record<string, string>,
  options: { query?: string; autoPong?: boolean } = {},
): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(base, options.query), {
      headers,
      autoPong: options.autoPong ?? true,
    });
    const frames: Frame[] = [];
    const texts: string[] = [];
    const closed = new Promise<number>((done) => {
      socket.on('close', (code) => {
        done(code);
      });
    });
    socket.on('message', (data: Buffer) => {
      texts.push(data.toString('utf8'));
      frames.push(JSON.parse(data.toString('utf8')) as Frame);
    });
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => {
        reject(
          Object.assign(new Error(`upgrade refused ${res.statusCode}`), {
            status: res.statusCode,
            body: body ? (JSON.parse(body) as Frame) : null,
          }),
        );
      });
    });
    socket.on('error', () => undefined);
    socket.on('open', () => {
      resolve({ socket, frames, texts, closed });
    });
  });
}

async function refused(
  promise: Promise<Connection>,
): Promise<{ status: number; body: Frame | null }> {
  try {
    const connection = await promise;
    connection.socket.close();
  } catch (error) {
    return error as { status: number; body: Frame | null };
  }
  throw new Error('upgrade was accepted');
}

function handshake(client: OrgClient): Record<string, string> {
  return signWsHandshake(client.signer);
}

async function framesUntil(conn: Connection, count: number): Promise<Frame[]> {
  return waitFor(
    () => (conn.frames.length >= count ? conn.frames : undefined),
    `${count} frames`,
    5000,
  );
}

async function newAccount(client: OrgClient, name: string): Promise<string> {
  const res = await client.call('POST', '/api/v1/ledger/accounts', { name });
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

const SCOPES = ['websockets:read', 'wallets:create', 'accounts:read'];

describe('handshake', () => {
  it('accepts the four-line signature and sends system.connected first', async () => {
    const client = await createOrgClient(harness, SCOPES);
    const conn = await connect(harness.baseUrl, handshake(client));
    const [first] = await framesUntil(conn, 1);
    expect(first).toMatchObject({ type: 'EVENT', event: 'system.connected', orgId: client.orgId });
    const normalized = normalizeEvent(first, { expectedOrgId: client.orgId });
    expect(normalized.ok && normalized.event.type).toBe('system.connected');
    conn.socket.close();
  });

  it('refuses a bad signature, the six-line form, a reused nonce and a stale timestamp with HTTP 401', async () => {
    const client = await createOrgClient(harness, SCOPES);
    const bad = handshake(client);
    bad['X-Api-Signature'] = handshake(client)['X-Api-Signature'] ?? '';
    expect((await refused(connect(harness.baseUrl, bad))).status).toBe(401);

    const six = handshake(client);
    six['X-Api-Signature'] = client.signer.sign(
      restCanonicalString({
        method: 'GET',
        target: WS_PATH,
        bodyHash: null,
        timestamp: six['X-Api-Timestamp'] ?? '',
        nonce: six['X-Api-Nonce'] ?? '',
        keyId: client.signer.keyId,
      }),
    );
    const sixLine = await refused(connect(harness.baseUrl, six));
    expect(sixLine.status).toBe(401);
    expect(sixLine.body).toMatchObject({ code: 'UNAUTHENTICATED', retryable: false });

    const once = handshake(client);
    (await connect(harness.baseUrl, once)).socket.close();
    expect((await refused(connect(harness.baseUrl, once))).status).toBe(401);

    const stale = signWsHandshake(client.signer, { now: Date.now() - 400_000 }) as Record<
      string,
      string
    >;
    expect((await refused(connect(harness.baseUrl, stale))).status).toBe(401);
    expect((await refused(connect(harness.baseUrl, {}))).status).toBe(401);
  });

  it('refuses a key without websockets:read with 403 and a bad resumeAfter with 400', async () => {
    const reader = await createOrgClient(harness, ['accounts:read']);
    expect((await refused(connect(harness.baseUrl, handshake(reader)))).status).toBe(403);
    const client = await createOrgClient(harness, SCOPES);
    const bad = await refused(
      connect(harness.baseUrl, handshake(client), { query: '?resumeAfter=-1' }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body?.code).toBe('INVALID_QUERY_PARAMETER');
  });

  it('answers a client message with system.error and keeps the socket open', async () => {
    const client = await createOrgClient(harness, SCOPES);
    const conn = await connect(harness.baseUrl, handshake(client));
    await framesUntil(conn, 1);
    conn.socket.send(JSON.stringify({ op: 'subscribe' }));
    const frames = await framesUntil(conn, 2);
    expect(frames[1]).toMatchObject({ type: 'EVENT', event: 'system.error', orgId: client.orgId });
    const normalized = normalizeEvent(frames[1]);
    expect(normalized.ok && normalized.event.type).toBe('system.error');
    expect(conn.socket.readyState).toBe(WebSocket.OPEN);
    conn.socket.close();
  });

  it('sends the legacy SYSTEM_CONNECTED when the switch is on', async () => {
    const client = await createOrgClient(harness, SCOPES);
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      legacyConnectedEvent: true,
    });
    const conn = await connect(harness.baseUrl, handshake(client));
    const [first] = await framesUntil(conn, 1);
    expect(first).toMatchObject({ type: 'SYSTEM_CONNECTED' });
    const normalized = normalizeEvent(first);
    expect(normalized.ok && normalized.event.type).toBe('system.connected');
    conn.socket.close();
  });
});

describe('delivery', () => {
  it('relays committed events of the org only, in the MVP envelope by default', async () => {
    const client = await createOrgClient(harness, SCOPES);
    const other = await createOrgClient(harness, SCOPES);
    const conn = await connect(harness.baseUrl, handshake(client));
    await framesUntil(conn, 1);
    await newAccount(other, 'Foreign');
    const accountId = await newAccount(client, 'Mine');
    // The stream relays in commit order: once a later marker event has arrived, the foreign
    // event (committed before it) has had its turn. No waiting on the clock for an absence.
    await newAccount(client, 'Marker');
    const frames = await framesUntil(conn, 3);
    expect(frames.map((f) => (f.data as { name?: string } | undefined)?.name)).toEqual([
      undefined,
      'Mine',
      'Marker',
    ]);
    const event = frames[1];
    expect(event).toMatchObject({
      type: 'EVENT',
      event: 'account.created',
      eventId: expect.any(String),
      version: 1,
      orgId: client.orgId,
      occurredAt: expect.any(String),
      correlationId: expect.any(String),
      data: { accountId, name: 'Mine' },
    });
    const normalized = normalizeEvent(event, { expectedOrgId: client.orgId });
    expect(normalized.ok).toBe(true);
    conn.socket.close();
  });

  it('uses the topic envelope with an increasing per-org sequence, and both envelopes as two frames', async () => {
    const client = await createOrgClient(harness, SCOPES);
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, { envelope: 'topic' });
    const conn = await connect(harness.baseUrl, handshake(client));
    await framesUntil(conn, 1);
    expect(conn.frames[0]).toMatchObject({ op: 'event', subject: 'system.connected' });
    await newAccount(client, 'T1');
    await newAccount(client, 'T2');
    const frames = await framesUntil(conn, 3);
    expect(frames.slice(1).map((f) => f.subject)).toEqual(['account.created', 'account.created']);
    expect(frames.slice(1).map((f) => f.sequence)).toEqual([1, 2]);
    expect(normalizeEvent(frames[1]).ok).toBe(true);
    conn.socket.close();

    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, { envelope: 'both' });
    const both = await connect(harness.baseUrl, handshake(client));
    await framesUntil(both, 2);
    await newAccount(client, 'T3');
    const all = await framesUntil(both, 4);
    const [mvp, topic] = all.slice(2);
    expect(mvp).toMatchObject({ type: 'EVENT', event: 'account.created' });
    expect(topic).toMatchObject({ op: 'event', subject: 'account.created', sequence: 3 });
    expect(mvp?.eventId).toBe(topic?.id);
    both.socket.close();
  });

  it("sends each event's stored data as JSON.stringify of the event would, byte for byte", async () => {
    const client = await createOrgClient(harness, SCOPES);
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, { envelope: 'both' });
    const conn = await connect(harness.baseUrl, handshake(client));
    await framesUntil(conn, 2);
    const res = await client.call('POST', '/api/v1/ledger/accounts', {
      name: 'Trésorerie "main" \u2028 \u{1F600} </script> \\ end',
      metadata: { zeta: 'last key first', alpha: 'tab\there', empty: '' },
    });
    expect(res.status).toBe(201);
    await framesUntil(conn, 4);
    const [stored] = events(harness, client.orgId);
    if (stored === undefined) throw new Error('no event stored');
    const head = { event: stored.type, orgId: stored.orgId, occurredAt: stored.occurredAt };
    expect(conn.texts.slice(2)).toEqual([
      JSON.stringify({
        type: 'EVENT',
        event: head.event,
        eventId: stored.id,
        version: 1,
        orgId: head.orgId,
        occurredAt: head.occurredAt,
        correlationId: stored.correlationId,
        data: stored.data,
      }),
      JSON.stringify({
        op: 'event',
        subId: 'default',
        id: stored.id,
        sequence: stored.sequence,
        subject: head.event,
        occurredAt: head.occurredAt,
        orgId: head.orgId,
        correlationId: stored.correlationId,
        version: 1,
        data: stored.data,
      }),
    ]);
    conn.socket.close();
  });

  it('replays outbox events after resumeAfter before live ones', async () => {
    const client = await createOrgClient(harness, SCOPES);
    for (const name of ['R1', 'R2', 'R3']) await newAccount(client, name);
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, { envelope: 'topic' });
    const conn = await connect(harness.baseUrl, handshake(client), { query: '?resumeAfter=1' });
    await newAccount(client, 'R4');
    const frames = await framesUntil(conn, 4);
    expect(frames[0]?.subject).toBe('system.connected');
    expect(frames.slice(1).map((f) => f.sequence)).toEqual([2, 3, 4]);
    expect(frames.slice(1).map((f) => (f.data as { name: string }).name)).toEqual([
      'R2',
      'R3',
      'R4',
    ]);
    conn.socket.close();
  });

  it('resumes after an event id in the MVP envelope, which carries no sequence', async () => {
    const client = await createOrgClient(harness, SCOPES);
    const first = await connect(harness.baseUrl, handshake(client));
    await framesUntil(first, 1);
    await newAccount(client, 'M1');
    const [, held] = await framesUntil(first, 2);
    first.socket.close();
    for (const name of ['M2', 'M3']) await newAccount(client, name);
    const query = `?resumeAfter=${encodeURIComponent(String(held?.eventId))}`;
    const resumed = await connect(harness.baseUrl, handshake(client), { query });
    const frames = await framesUntil(resumed, 3);
    expect(frames.slice(1).map((f) => (f.data as { name: string }).name)).toEqual(['M2', 'M3']);
    resumed.socket.close();
  });

  it('refuses to resume after an event id of another organization', async () => {
    const owner = await createOrgClient(harness, SCOPES);
    const stranger = await createOrgClient(harness, SCOPES);
    const conn = await connect(harness.baseUrl, handshake(owner));
    await framesUntil(conn, 1);
    await newAccount(owner, 'Mine');
    const [, event] = await framesUntil(conn, 2);
    conn.socket.close();
    const query = `?resumeAfter=${encodeURIComponent(String(event?.eventId))}`;
    const refusal = await refused(connect(harness.baseUrl, handshake(stranger), { query }));
    expect(refusal.status).toBe(400);
    expect(refusal.body?.code).toBe('INVALID_QUERY_PARAMETER');
  });

  it('re-sends events with the same id when duplicateEventRate is 1', async () => {
    const client = await createOrgClient(harness, SCOPES);
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, { duplicateEventRate: 1 });
    const conn = await connect(harness.baseUrl, handshake(client));
    await framesUntil(conn, 1);
    await newAccount(client, 'Twice');
    const frames = await framesUntil(conn, 3);
    expect(frames[1]?.eventId).toBe(frames[2]?.eventId);
    conn.socket.close();
  });

  it('drops a socket once it has been connected dropSocketEveryMs, not before', async () => {
    // The sandbox's clock is the test's: the drop is decided by it, never by elapsed real time.
    let clock = Date.now();
    const timed = await startHarness({ sandbox: { nowMs: () => clock } });
    try {
      const client = await createOrgClient(timed, SCOPES);
      await timed.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, { dropSocketEveryMs: 200 });
      const conn = await connect(timed.baseUrl, handshake(client));
      await framesUntil(conn, 1);
      clock += 199;
      // Each poll checks for drops before it delivers: this event arriving proves a poll at
      // +199 ms kept the socket.
      await newAccount(client, 'Still here');
      await framesUntil(conn, 2);
      expect(conn.socket.readyState).toBe(WebSocket.OPEN);
      clock += 1;
      expect(await conn.closed).toBe(1006);
    } finally {
      await timed.close();
    }
  });
});

describe('keepalive', () => {
  it('terminates a socket that does not answer pings and keeps one that does', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-ping-'));
    const sandbox = createSandbox({ dataDir, adminToken: ADMIN_TOKEN, pingIntervalMs: 100 });
    const { baseUrl } = await sandbox.listen(0);
    try {
      const local: Harness = {
        sandbox,
        baseUrl,
        admin: async (method, path, body) => {
          const res = await fetch(`${baseUrl}${path}`, {
            method,
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          return { status: res.status, body: await res.json(), headers: res.headers };
        },
        close: () => sandbox.stop(),
      };
      const client = await createOrgClient(local, SCOPES);
      const silent = await connect(baseUrl, handshake(client), { autoPong: false });
      const alive = await connect(baseUrl, handshake(client));
      expect(await silent.closed).toBe(1006);
      expect(alive.socket.readyState).toBe(WebSocket.OPEN);
      alive.socket.close();
    } finally {
      await sandbox.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('delivery', () => {
  it('writes the frames of one poll to a socket in one write, not one write per frame', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'stream-cork-'));
    const sandbox = createSandbox({ dataDir, adminToken: ADMIN_TOKEN });
    const { baseUrl, server } = await sandbox.listen(0);
    let transport: Duplex | undefined;
    // After the stream's own upgrade listener: the same TCP socket the frames go to.
    server.on('upgrade', (_req, socket: Duplex) => {
      transport = socket;
    });
    try {
      const local: Harness = {
        sandbox,
        baseUrl,
        admin: async (method, path, body) => {
          const res = await fetch(`${baseUrl}${path}`, {
            method,
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          return { status: res.status, body: await res.json(), headers: res.headers };
        },
        close: () => sandbox.stop(),
      };
      const client = await createOrgClient(local, SCOPES);
      const conn = await connect(baseUrl, handshake(client));
      const connected = (await framesUntil(conn, 1)).length;
      if (transport === undefined) throw new Error('no upgrade seen');
      const writes = [
        vi.spyOn(transport as unknown as { _write: () => void }, '_write'),
        vi.spyOn(transport as unknown as { _writev: () => void }, '_writev'),
      ];
      const { db } = sandbox.ctx;
      db.transaction(() => {
        for (let i = 0; i < 12; i += 1) {
          appendEvent(db, {
            orgId: client.orgId,
            type: 'transaction.updated',
            correlationId: null,
            occurredAt: new Date().toISOString(),
            data: { transactionId: `tx-${String(i)}` },
          });
        }
      })();

      await framesUntil(conn, connected + 12);
      expect(writes.reduce((sum, spy) => sum + spy.mock.calls.length, 0)).toBe(1);
      conn.socket.close();
    } finally {
      await sandbox.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
