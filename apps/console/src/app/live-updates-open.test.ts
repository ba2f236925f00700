import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { QueryKey } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { governanceKeys } from '../features/governance/api/keys';
import { transactionKeys } from '../features/transactions/api/keys';
import { treasuryKeys } from '../features/treasury/api/keys';
import { FakeWebSocket } from '../test/fake-web-socket';
import { startLiveUpdates } from './live-updates';

const SESSION_KEY = ['session'];
const REQUESTS_KEY = governanceKeys.requestList('AWAITING_APPROVAL');
const TRANSACTION_KEY = transactionKeys.detail('tx_1');
const OVERVIEW_KEY = treasuryKeys.overview();

/** Active queries on screen, counting the reads each one makes. */
function screenWithQueries() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const reads = new Map<string, number>();
  const unsubscribes = [SESSION_KEY, REQUESTS_KEY, TRANSACTION_KEY, OVERVIEW_KEY].map(
    (queryKey: QueryKey) => {
      const name = JSON.stringify(queryKey);
      const observer = new QueryObserver(client, {
        queryKey,
        staleTime: Infinity,
        queryFn: () => {
          reads.set(name, (reads.get(name) ?? 0) + 1);
          return { read: reads.get(name) };
        },
      });
      return observer.subscribe(() => undefined);
    },
  );
  const readsOf = (queryKey: QueryKey) => reads.get(JSON.stringify(queryKey)) ?? 0;
  const idle = () =>
    vi.waitFor(() => {
      expect(client.isFetching()).toBe(0);
    });
  return {
    client,
    readsOf,
    idle,
    close: () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}

const handlers = { onTerminal: vi.fn(), onSessionEnded: vi.fn(), onConnectionLost: vi.fn() };

beforeEach(() => {
  FakeWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the stream opening', () => {
  /** A page whose queries have loaded, then its socket, opened without a position. */
  async function openedPage() {
    const screen = screenWithQueries();
    await screen.idle();
    const stop = startLiveUpdates(screen.client, handlers);
    const socket = FakeWebSocket.latest();
    socket.acceptOpen();
    await screen.idle();
    return {
      screen,
      socket,
      stop: () => {
        stop();
        screen.close();
      },
    };
  }

  it('without a position, tells the relay how long the page has been reading, and rereads governance (its changes are not replayed)', async () => {
    const { screen, socket, stop } = await openedPage();

    expect(socket.url).toMatch(/\/bff\/events\?within=\d+$/);
    expect(screen.readsOf(REQUESTS_KEY)).toBe(2);
    // Money data is reread only when the relay says events arrived meanwhile (below).
    expect(screen.readsOf(TRANSACTION_KEY)).toBe(1);
    expect(screen.readsOf(SESSION_KEY)).toBe(1);
    stop();
  });

  it('told "events-before-open", rereads what the stream keeps fresh (a change before it opened is not lost), never the session', async () => {
    const { screen, socket, stop } = await openedPage();

    socket.onmessage?.({ data: JSON.stringify({ kind: 'resync', reason: 'events-before-open' }) });
    await screen.idle();

    expect(screen.readsOf(TRANSACTION_KEY)).toBe(2);
    expect(screen.readsOf(REQUESTS_KEY)).toBe(3);
    expect(screen.readsOf(SESSION_KEY)).toBe(1);
    stop();
  });

  it('resumed after an event, rereads only the governance data: the events it missed are replayed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const screen = screenWithQueries();
    await vi.advanceTimersByTimeAsync(0);
    const stop = startLiveUpdates(screen.client, handlers);
    const first = FakeWebSocket.latest();
    first.acceptOpen();
    first.onmessage?.({
      data: JSON.stringify({
        kind: 'event',
        event: {
          id: 'evt_1',
          type: 'transaction.updated',
          occurredAt: '2026-11-24T10:00:00Z',
          data: {},
        },
        invalidates: [],
      }),
    });
    await vi.advanceTimersByTimeAsync(1_000);
    const before = {
      requests: screen.readsOf(REQUESTS_KEY),
      transaction: screen.readsOf(TRANSACTION_KEY),
    };

    first.closeFromServer(1006);
    // The backoff's longest first delay.
    await vi.advanceTimersByTimeAsync(5_000);
    const second = FakeWebSocket.latest();
    expect(second).not.toBe(first);
    expect(second.url).toContain('after=evt_1');
    second.acceptOpen();
    await vi.advanceTimersByTimeAsync(1_000);

    expect(screen.readsOf(REQUESTS_KEY)).toBe(before.requests + 1);
    expect(screen.readsOf(TRANSACTION_KEY)).toBe(before.transaction);
    expect(screen.readsOf(SESSION_KEY)).toBe(1);
    stop();
    screen.close();
  });
});

describe('without a live socket', () => {
  it('rereads every ten seconds what the stream would keep fresh, approvals included, never the session; not once it is open', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const screen = screenWithQueries();
    await vi.advanceTimersByTimeAsync(0);
    const stop = startLiveUpdates(screen.client, handlers);
    // The socket keeps trying (the relay is unreachable): the page polls meanwhile.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(screen.readsOf(TRANSACTION_KEY)).toBe(2);
    expect(screen.readsOf(OVERVIEW_KEY)).toBe(2);
    expect(screen.readsOf(REQUESTS_KEY)).toBe(2);
    expect(screen.readsOf(SESSION_KEY)).toBe(1);

    FakeWebSocket.latest().acceptOpen();
    await vi.advanceTimersByTimeAsync(0);
    const opened = {
      requests: screen.readsOf(REQUESTS_KEY),
      transaction: screen.readsOf(TRANSACTION_KEY),
    };
    // Open and alive (the relay's heartbeats): 30 s without a reread.
    for (let second = 0; second < 30; second += 10) {
      await vi.advanceTimersByTimeAsync(10_000);
      FakeWebSocket.latest().heartbeat();
    }
    expect(screen.readsOf(REQUESTS_KEY)).toBe(opened.requests);
    expect(screen.readsOf(TRANSACTION_KEY)).toBe(opened.transaction);
    stop();
    screen.close();
  });
});
