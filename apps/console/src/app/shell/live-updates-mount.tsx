import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { fetchMe } from '../../features/session/api/me';
import { endSession } from '../../features/session/session-end';
import { showToast } from '../../lib/toasts';

const terminalText: Record<string, string> = {
  CONFIRMED: 'confirmed',
  FAILED: 'failed',
  FAILED_ON_CHAIN: 'failed on chain',
};

/**
 * Mounted once in the shell: the app's single socket, toasts for terminal transactions, and
 * the signed-out state when the relay (or a refused reconnect) says the session is over.
 */
export function LiveUpdatesMount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    let stop: (() => void) | null = null;
    let isUnmounted = false;
    // The socket and its frame handling are their own chunk, loaded after the first paint:
    // the first page renders from REST and needs none of it to show.
    void import('../live-updates').then(({ startLiveUpdates }) => {
      if (isUnmounted) return;
      stop = startLiveUpdates(queryClient, {
        onTerminal: ({ transactionId, status, event }) => {
          const amount = typeof event.data.asset === 'string' ? ` (${event.data.asset})` : '';
          const message = `Transaction ${terminalText[status] ?? status}${amount}`;
          const options = {
            id: `tx-${transactionId}-${status}`,
            description: transactionId,
            action: {
              label: 'View',
              onClick: () => {
                void navigate(`/transactions/${encodeURIComponent(transactionId)}`);
              },
            },
          };
          showToast(status === 'CONFIRMED' ? 'success' : 'error', message, options);
        },
        onSessionEnded: () => {
          endSession(queryClient, 'ended');
        },
        onConnectionLost: () => {
          // A network failure proves nothing: only a definite "no session" signs out.
          fetchMe().then(
            (session) => {
              if (session === null) endSession(queryClient, 'ended');
            },
            () => undefined,
          );
        },
      });
    });
    return () => {
      isUnmounted = true;
      stop?.();
    };
  }, [queryClient, navigate]);
  return null;
}
