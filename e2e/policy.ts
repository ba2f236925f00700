import type { APIRequestContext } from '@playwright/test';
import type { PolicyDocumentInput } from '@settlement/protocol';
import { BffSession, EXTERNAL_ADDRESS, expect } from './fixtures';

/**
 * The demo stack starts with the default withdrawal policy (external destinations need an
 * admin's approval). Journeys that are not about governance send withdrawals straight through,
 * so they install a policy that allows everything first; governance journeys install their own.
 */
const ALLOW_ALL_POLICY: PolicyDocumentInput = {
  rules: [{ id: 'allow-all', name: 'Allow everything (e2e)', match: {}, action: 'ALLOW' }],
  limits: [],
  settings: { requestExpiryHours: 24 },
};

/** Stores `policy` as a new version, as the demo admin, through PUT /bff/policy. */
export async function installPolicy(
  request: APIRequestContext,
  policy: PolicyDocumentInput,
): Promise<void> {
  const admin = await BffSession.signIn(request, 'admin');
  await admin.put('/bff/policy', policy);
}

export async function allowAllWithdrawals(request: APIRequestContext): Promise<void> {
  await installPolicy(request, ALLOW_ALL_POLICY);
}

/**
 * As the demo treasury, through the BFF, a TRX withdrawal of `amountAtomic` from `walletId` to
 * the external address, which the installed policy must hold for approval; its request id.
 */
export async function requestApproval(
  request: APIRequestContext,
  { walletId, amountAtomic, key }: { walletId: string; amountAtomic: string; key: string },
): Promise<string> {
  const treasury = await BffSession.signIn(request, 'treasury');
  const created = await treasury.post<{ withdrawalRequest: { id: string; status: string } }>(
    '/bff/api/v1/transactions',
    { walletId, asset: 'TRX', toAddress: EXTERNAL_ADDRESS, amountAtomic },
    key,
  );
  expect(created.withdrawalRequest.status).toBe('AWAITING_APPROVAL');
  return created.withdrawalRequest.id;
}
