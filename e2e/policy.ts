import type { APIRequestContext } from '@playwright/test';
import type { PolicyDocumentInput } from '@settlement/protocol';
import { BffSession } from './fixtures';

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
