import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RelayFrameSchema } from '@settlement/protocol';
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
/** Moves the BFF's clock (the stored events' `received_at` and the socket's window alike). */
let clockOffsetMs = 0;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff({ sandbox, now: () => Date.now() + clockOffsetMs });
  treasury = await bff.login('treasury');
  await waitFor(async () => Promise.resolve(bff.bff.relay.state === 'connected'));
}, 60_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

/** Creates an account and waits for the relay to store its event; returns the event id. */
async function storedEventId(): Promise<string> {
  const created = await bff.call('POST', '/bff/api/v1/ledger/accounts', {
    browser: treasury,
    body: { name: 'Resume point' },
  });
  expect(created.status).toBe(201);
  const accountId = (created.json as { id: string }).id;
  return waitFor(async () => {
    const row = bff.db
      .prepare("SELECT id FROM events WHERE type = 'account.created' AND account_id = ?")
      .get(accountId) as { id: string } | undefined;
    return Promise.resolve(row?.id);
  });
}

describe('resuming the browser event socket', () => {
  it('sends a resync frame right after the upstream frame when `after` names no stored event', async () => {
    const socket = await openEvents(bff, treasury, { after: 'evt_the_store_never_had' });
    await vi.waitFor(() => {
      expect(socket.frames.length).toBeGreaterThanOrEqual(2);
    });
    expect(socket.frames.map((frame) => RelayFrameSchema.parse(frame).kind).slice(0, 2)).toEqual([
      'upstream',
      'resync',
    ]);
    expect(socket.frames[1]).toEqual({ kind: 'resync', reason: 'resume-point-unknown' });
    socket.ws.close();
  });

  it('replays without a resync frame when `after` is a stored event, and when there is no `after`', async () => {
    const eventId = await storedEventId();
    const resumed = await openEvents(bff, treasury, { after: eventId });
    const fresh = await openEvents(bff, treasury);
    await vi.waitFor(() => {
      expect(resumed.frames.length).toBeGreaterThanOrEqual(1);
      expect(fresh.frames.length).toBeGreaterThanOrEqual(1);
    });
    // A live event after both sockets opened: everything sent before it is in `frames`.
    const nextId = await storedEventId();
    await vi.waitFor(() => {
      expect(resumed.eventIds()).toContain(nextId);
      expect(fresh.eventIds()).toContain(nextId);
    });
    for (const socket of [resumed, fresh]) {
      expect(socket.frames.filter((frame) => frame.kind === 'resync')).toEqual([]);
      socket.ws.close();
    }
  });
});

describe('a browser without a position (`within`)', () => {
  /** The frames before the first live event: what the relay said as the socket joined. */
  async function openingFrames(within: string) {
    const socket = await openEvents(bff, treasury, { within });
    const nextId = await storedEventId();
    await vi.waitFor(() => {
      expect(socket.eventIds()).toContain(nextId);
    });
    socket.ws.close();
    const firstEvent = socket.frames.findIndex((frame) => frame.kind === 'event');
    return socket.frames.slice(0, firstEvent);
  }

  it('is told to reread when events arrived while its page was being read, and not otherwise', async () => {
    await storedEventId();
    // The page began reading a minute ago: the event just stored is in that window.
    expect(await openingFrames('60000')).toContainEqual({
      kind: 'resync',
      reason: 'events-before-open',
    });

    // A minute later (by the BFF's clock), a page that began reading a second ago missed nothing.
    clockOffsetMs += 60_000;
    expect(await openingFrames('1000')).toEqual([{ kind: 'upstream', state: 'connected' }]);
  });

  it('does not make a page reread when nothing arrived since it began reading, however long ago', async () => {
    await storedEventId();
    // 12 minutes later by the BFF's clock (within the session's 15 idle minutes), a page that
    // began reading 11 minutes ago: the event above was stored before it, and nothing since
    // (the relay once made any page older than 10 minutes reread).
    clockOffsetMs += 12 * 60_000;
    expect(await openingFrames(String(11 * 60_000))).toEqual([
      { kind: 'upstream', state: 'connected' },
    ]);
  });

  it('makes a page older than the events it keeps reread, and still lets its socket in', async () => {
    // A tab open for 40 days: ten digits of milliseconds, past the 30 days of events kept.
    expect(await openingFrames(String(40 * 86_400_000))).toContainEqual({
      kind: 'resync',
      reason: 'events-before-open',
    });
  });

  it('refuses a `within` that is not a number of milliseconds', async () => {
    for (const within of ['-1', '1e3', 'soon', '12345678901234']) {
      await expect(openEvents(bff, treasury, { within })).rejects.toThrow(/400/);
    }
  });
});

describe('the Origin of the event socket', () => {
  it('refuses an https Origin on the http listener, same host and port', async () => {
    const httpsOrigin = bff.origin.replace('http:', 'https:');
    await expect(openEvents(bff, treasury, { origin: httpsOrigin })).rejects.toThrow(/403/);
    const socket = await openEvents(bff, treasury, { origin: bff.origin });
    socket.ws.close();
  });

  it('refuses a mutating request from an https Origin on the http listener', async () => {
    const answer = await bff.call('POST', '/bff/api/v1/ledger/accounts', {
      browser: treasury,
      body: { name: 'Cross scheme' },
      origin: bff.origin.replace('http:', 'https:'),
    });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'FORBIDDEN', retryable: false });
  });
});
