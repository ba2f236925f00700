import { z } from 'zod/mini';
import { BalanceSchema } from './balance';
import { MetadataSchema, Reference128Schema, TimestampSchema } from './common';

export const AccountSchema = z.looseObject({
  id: z.string(),
  orgId: z.string(),
  name: z.string(),
  externalId: z.nullable(z.string()),
  metadata: z.nullable(z.record(z.string(), z.unknown())),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type Account = z.infer<typeof AccountSchema>;

/** The detail response carries account-level extras (the interface leaves them open). */
export const AccountDetailSchema = z.lazy(() =>
  z.extend(AccountSchema, {
    walletCount: z.int().check(z.nonnegative()),
    balances: z.array(BalanceSchema),
  }),
);
export type AccountDetail = z.infer<typeof AccountDetailSchema>;

export const CreateAccountRequestSchema = z.object({
  name: z
    .string()
    .check(z.trim(), z.minLength(1, 'Enter a name.'), z.maxLength(200, 'At most 200 characters.')),
  externalId: z.optional(Reference128Schema),
  metadata: z.optional(MetadataSchema),
});
export type CreateAccountRequest = z.infer<typeof CreateAccountRequestSchema>;
