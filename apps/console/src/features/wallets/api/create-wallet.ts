import { WalletSchema } from '@settlement/protocol';
import type { CreateWalletRequest } from '@settlement/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { walletKeys } from './keys';

type CreateWalletInput = { request: CreateWalletRequest; operationId: string };

/** POST /api/v1/wallets under the dialog's operation id (idempotent across retries). */
function createWallet({ request, operationId }: CreateWalletInput) {
  return apiRequest('/bff/api/v1/wallets', WalletSchema, {
    method: 'POST',
    body: request,
    operationId,
  });
}

export function useCreateWalletMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWallet,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletKeys.lists() }),
  });
}
