import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';

type SimulatedDeposit = { walletId: string; asset: string; amountAtomic: string };

/** Sandbox tool: the simulated chain sends a deposit to one of our wallets. */
function simulateDeposit(deposit: SimulatedDeposit) {
  return apiRequest('/bff/sandbox/deposits', z.unknown(), { method: 'POST', body: deposit });
}

export function useSimulateDepositMutation() {
  return useMutation({ mutationFn: simulateDeposit });
}
