import { QueryClient } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RELAY_SILENCE_LIMIT_MS, type RelayFrame, type RelayedEvent } from '@settlement/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { transactionKeys } from '../../features/transactions/api/keys';
import { FakeWebSocket } from '../../test/fake-web-socket';
import { startApiTestServer, type TestServer } from '../../test/test-server';
import { startLiveUpdates } from '../live-updates';
import { LiveIndicator } from './live-indicator';

const T0 = Date.parse('2026-03-01T12:00:00Z');

function event(sequence: number): RelayedEvent {
  return {
    id: `evt_${String(sequence)}`,
    type: 'transaction.updated',
    occurredAt: new Date(T0 - 1_500).toISOString(),
    orgId: 'org_test',
    data: { transactionId: `tx_${String(sequence)}` },
    sequence,
  };
}

function send(frame: RelayFrame) {
  act(() => {
    FakeWebSocket.latest().onmessage?.({ data: JSON.stringify(frame) });
  });
}

let server: TestServer;
let stop: (() => void) | null = null;
beforeAll(async () => {
  server = await startApiTestServer();
  // The stored history holds everything, 1..5, newest first.
  server.route('GET', '/bff/events/history*', () => ({
    body: { items: [5, 4, 3, 2, 1].map(event), nextBefore: null },
  }));
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.setSystemTime(T0);
  FakeWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
});
afterEach(() => {
  stop?.();
  stop = null;
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('LiveIndicator connection', () => {
  const badge = (label: string) => screen.getByRole('status', { name: `Live updates: ${label}` });

  it('says Connecting until the first connection opens, Reconnecting only after one was lost', async () => {
    render(<LiveIndicator />);
    // Before the socket's module has loaded: the first connection is on its way.
    expect(badge('Connecting')).toBeVisible();
    stop = startLiveUpdates(new QueryClient(), {
      onTerminal: () => undefined,
      onSessionEnded: () => undefined,
      onConnectionLost: () => undefined,
    });
    expect(badge('Connecting')).toBeVisible();
    // A first attempt that fails never connected: the retry is still the first connection.
    act(() => {
      FakeWebSocket.latest().closeFromServer(1006);
    });
    expect(badge('Connecting')).toBeVisible();
    // Past the backoff, within the time an unanswered handshake is waited for.
    await act(() => vi.advanceTimersByTimeAsync(RELAY_SILENCE_LIMIT_MS - 1_000));
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(badge('Connecting')).toBeVisible();

    act(() => {
      FakeWebSocket.latest().acceptOpen();
    });
    expect(badge('Live')).toBeVisible();

    act(() => {
      FakeWebSocket.latest().closeFromServer(1006);
    });
    expect(badge('Reconnecting')).toBeVisible();
    // The next attempt is under way: still a reconnect, not a first connection.
    await act(() => vi.advanceTimersByTimeAsync(RELAY_SILENCE_LIMIT_MS - 1_000));
    expect(FakeWebSocket.instances).toHaveLength(3);
    expect(badge('Reconnecting')).toBeVisible();
  });
});

describe('LiveIndicator stream health', () => {
  it('shows lag, age, duplicates and a sequence gap, and a backfill recovers the gap from the history', async () => {
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    const queryClient = new QueryClient();
    queryClient.setQueryData(transactionKeys.list({}), { pages: [], pageParams: [] });
    stop = startLiveUpdates(queryClient, {
      onTerminal: () => undefined,
      onSessionEnded: () => undefined,
      onConnectionLost: () => undefined,
    });
    render(<LiveIndicator />);
    act(() => {
      FakeWebSocket.latest().acceptOpen();
    });

    for (const sequence of [1, 2, 5])
      send({ kind: 'event', event: event(sequence), invalidates: [] });
    // A redelivery of 5: dropped by the dedupe.
    send({ kind: 'event', event: event(5), invalidates: [] });
    await act(() => vi.advanceTimersByTimeAsync(2_000));

    await user.click(screen.getByRole('button', { name: 'Stream health (gaps detected)' }));
    const panel = await screen.findByRole('region', { name: 'Event stream health' });
    const row = (term: string) => within(panel).getByText(term).nextElementSibling?.textContent;
    expect(row('Connection')).toBe('Connected (Live)');
    // The clock also moves with real time while the test runs (a few tenths at most).
    expect(row('Lag')).toMatch(/^3\.[5-9] s$/);
    expect(row('Last event')).toMatch(/^2\.[0-4] s ago$/);
    expect(row('Duplicates dropped')).toBe('1');
    expect(row('Sequence gaps')).toBe('1 open, 2 event(s) missing');

    await user.click(within(panel).getByRole('button', { name: 'Backfill' }));
    expect(
      await within(panel).findByText(/Backfill done: 2 missing event\(s\) recovered/),
    ).toBeVisible();
    expect(row('Sequence gaps')).toBe('None open (1 found)');
    expect(screen.getByRole('button', { name: 'Stream health' })).toBeVisible();
    // The lists were reconciled through REST, and only the missing range was asked for once.
    expect(queryClient.getQueryState(transactionKeys.list({}))?.isInvalidated).toBe(true);
    expect(server.requests.filter((r) => r.path.startsWith('/bff/events/history'))).toHaveLength(1);
  });
});
