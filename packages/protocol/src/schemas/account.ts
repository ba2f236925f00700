import { z } from 'zod';
import { BalanceSchema } from './balance';
import { MetadataSchema, Reference128Schema, TimestampSchema } from './common';

export const AccountSchema = z.looseObject({
  id: z.string(),
  orgId: z.string(),
  name: z.string(),
  externalId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type Account = z.infer<typeof AccountSchema>;

/** The detail response carries account-level extras (the interface leaves them open). */
export const AccountDetailSchema = z.lazy(() =>
  AccountSchema.extend({
    walletCount: z.number().int().nonnegative(),
    balances: z.array(BalanceSchema),
  }),
);
export type AccountDetail = z.infer<typeof AccountDetailSchema>;

export const CreateAccountRequestSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name.').max(200, 'At most 200 characters.'),
  externalId: Reference128Schema.optional(),
  metadata: MetadataSchema.optional(),
});
export type CreateAccountRequest = z.infer<typeof CreateAccountRequestSchema>;
