import { z } from 'zod/mini';
import { ChainSchema, TimestampSchema } from './common';

export const KEY_STATUSES = ['PROVISIONING', 'ACTIVE'] as const;
export const CO_SIGNER_STATUSES = ['ONLINE', 'OFFLINE'] as const;

export const MpcStatusSchema = z.lazy(() =>
  z.looseObject({
    orgId: z.string(),
    keyId: z.nullable(z.string()),
    keyStatus: z.nullable(z.enum(KEY_STATUSES)),
    coSigner: z.looseObject({
      status: z.enum(CO_SIGNER_STATUSES),
      lastSeenAt: z.nullable(TimestampSchema),
    }),
    chains: z.array(
      z.looseObject({ chain: ChainSchema, ready: z.boolean(), reason: z.nullable(z.string()) }),
    ),
  }),
);
export type MpcStatus = z.infer<typeof MpcStatusSchema>;

/** Whether wallets and withdrawals may be created on a chain, with the reason when not. */
export function chainReadiness(
  status: MpcStatus,
  chain: string,
): { isReady: boolean; reason: string | null } {
  if (status.keyStatus !== 'ACTIVE') {
    return { isReady: false, reason: 'The MPC key is not active yet. Finish Setup first.' };
  }
  if (status.coSigner.status !== 'ONLINE') {
    return { isReady: false, reason: 'The Co-Signer is offline.' };
  }
  const entry = status.chains.find((c) => c.chain === chain);
  if (!entry?.ready) {
    return { isReady: false, reason: entry?.reason ?? `${chain} is not ready.` };
  }
  return { isReady: true, reason: null };
}

/** The body of POST /api/v1/mpc/initialize: exactly these two bytes. */
export const MPC_INITIALIZE_BODY = '{}';
