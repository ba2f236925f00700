import { PutWalletLabelResponseSchema } from '@settlement/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { treasuryKeys } from './keys';

/** PUT /bff/wallet-labels/{walletId}: a label, or null for the default name. */
export function useSaveWalletLabelMutation(walletId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (label: string | null) =>
      apiRequest(
        `/bff/wallet-labels/${encodeURIComponent(walletId)}`,
        PutWalletLabelResponseSchema,
        { method: 'PUT', body: { label } },
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: treasuryKeys.overview(), exact: true }),
  });
}
