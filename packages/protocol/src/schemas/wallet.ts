import { z } from 'zod/mini';
import { ChainSchema, TimestampSchema } from './common';

export const WALLET_STATUSES = ['ACTIVE', 'DISABLED', 'ARCHIVED'] as const;
export const WalletStatusSchema = z.enum(WALLET_STATUSES);
export type WalletStatus = z.infer<typeof WalletStatusSchema>;

export const WalletSchema = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    chain: ChainSchema,
    accountId: z.string(),
    accountName: z.string(),
    address: z.string(),
    status: WalletStatusSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  }),
);
export type Wallet = z.infer<typeof WalletSchema>;

export const CreateWalletRequestSchema = z.lazy(() =>
  z.object({
    chain: z.string().check(z.minLength(1)),
    accountId: z.string().check(z.minLength(1)),
  }),
);
export type CreateWalletRequest = z.infer<typeof CreateWalletRequestSchema>;

export const WALLET_SORT_FIELDS = ['createdAt', 'updatedAt'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;
