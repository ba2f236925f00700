import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { startLiveUpdates } from '../live-updates';

const terminalText: Record<string, string> = {
  CONFIRMED: 'confirmed',
  FAILED: 'failed',
  FAILED_ON_CHAIN: 'failed on chain',
};

/** Mounted once in the shell: the app's single socket, and toasts for terminal transactions. */
export function LiveUpdatesMount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(
    () =>
      startLiveUpdates(queryClient, ({ transactionId, status, event }) => {
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
        if (status === 'CONFIRMED') toast.success(message, options);
        else toast.error(message, options);
      }),
    [queryClient, navigate],
  );
  return null;
}
