import { useSyncExternalStore } from 'react';
import type { RelayedEvent, SocketState, UpstreamState } from '../lib/events-socket';
import type { StreamHealthSnapshot } from './stream-health';

/**
 * What the live socket has told this tab (read by the shell, the overview and the Events page).
 * Apart from `live-updates.ts`, which writes it: that module (socket, frame handling, health
 * tracking) loads after the first paint, while every page reads this state from the start.
 */

export type LiveState = {
  /**
   * `connecting` until a first connection opens (however many attempts that takes),
   * `reconnecting` after one was lost (see `live-updates.ts`).
   */
  socket: SocketState;
  upstream: UpstreamState | null;
  /** Newest first, at most a thousand events. */
  feed: readonly RelayedEvent[];
  received: number;
  /** Lag, age, duplicates and sequence gaps of the stream (the Live badge's panel). */
  health: StreamHealthSnapshot;
};

/** A stream with nothing received yet (here, not beside the tracker: every page reads it). */
export const EMPTY_HEALTH: StreamHealthSnapshot = {
  lastReceivedAt: null,
  lastOccurredAt: null,
  duplicatesDropped: 0,
  gapsDetected: 0,
  openGaps: [],
  backfill: { state: 'idle' },
};

export const CLOSED_LIVE_STATE: LiveState = {
  socket: 'closed',
  upstream: null,
  feed: [],
  received: 0,
  health: EMPTY_HEALTH,
};

// A page of the shell starts the socket right after its first paint: until then its first
// connection is on the way, not offline.
let state: LiveState = { ...CLOSED_LIVE_STATE, socket: 'connecting' };
const listeners = new Set<() => void>();

export function getLiveState(): LiveState {
  return state;
}

export function updateLiveState(next: Partial<LiveState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLiveState(): LiveState {
  return useSyncExternalStore(subscribe, getLiveState);
}
