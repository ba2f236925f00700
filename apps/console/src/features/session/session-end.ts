import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { z } from 'zod/mini';
import { setCsrfToken } from '../../lib/api-client';
import { sessionKeys } from './api/keys';

/**
 * How a tab learns that its session is over without the operator signing out in it: another
 * tab signed out (BroadcastChannel), the relay closed the socket with "session ended", or the
 * BFF answered 401. Such a tab shows "Signed out" instead of reconnecting or bouncing the
 * operator away from the page; signing in again returns to it.
 */

export type SessionEndReason = 'signed-out-elsewhere' | 'ended';

let endReason: SessionEndReason | null = null;
let isSigningOutHere = false;
const listeners = new Set<() => void>();

function setEndReason(next: SessionEndReason | null): void {
  if (endReason === next) return;
  endReason = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Why this tab's session ended, or null while it has not (or after signing in again). */
export function useSessionEnd(): SessionEndReason | null {
  return useSyncExternalStore(subscribe, () => endReason);
}

/**
 * Marks the session of this tab as ended. Only the session is forgotten: storage is left
 * alone, so what other features keep there (an unsent draft) survives signing in again.
 */
export function endSession(queryClient: QueryClient, reason: SessionEndReason): void {
  // The tab that signs out goes to the sign-in page; the 401s and the socket close its own
  // logout causes are not news to it.
  if (isSigningOutHere) return;
  setCsrfToken(null);
  // One sign-out elsewhere reaches a tab twice (the relay's close, then the other tab's
  // message, in either order): the more specific reason is the one shown.
  if (endReason === null || reason === 'signed-out-elsewhere') setEndReason(reason);
  queryClient.setQueryData(sessionKeys.me(), null);
}

/** The operator pressed "Sign out" in this tab. */
export function beginSignOutHere(): void {
  isSigningOutHere = true;
}

/** A session exists again (signed in here, or the tab found one): forget the last end. */
export function resetSessionEnd(): void {
  isSigningOutHere = false;
  setEndReason(null);
}

// --- between tabs ---

const CHANNEL_NAME = 'settlement-console:session';
const SessionMessageSchema = z.object({ kind: z.literal('signed-out') });

let channel: BroadcastChannel | null = null;

/**
 * One channel per tab for both directions: a BroadcastChannel never receives its own
 * messages, so the signing-out tab does not hear itself.
 */
function tabChannel(): BroadcastChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  channel ??= new BroadcastChannel(CHANNEL_NAME);
  return channel;
}

/** Tells every other tab of this origin that the operator signed out. */
export function announceSignOut(): void {
  tabChannel()?.postMessage({ kind: 'signed-out' } satisfies z.infer<typeof SessionMessageSchema>);
}

/** Calls `onSignedOut` when another tab of this origin announces a sign-out. */
export function listenForSignOutElsewhere(onSignedOut: () => void): () => void {
  const current = tabChannel();
  if (!current) return () => undefined;
  const handleMessage = (event: MessageEvent) => {
    if (SessionMessageSchema.safeParse(event.data).success) onSignedOut();
  };
  current.addEventListener('message', handleMessage);
  return () => {
    current.removeEventListener('message', handleMessage);
  };
}
