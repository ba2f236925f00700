import { z } from 'zod/mini';
import { AtomicAmountSchema, SignedAtomicAmountSchema } from '../amounts';
import { ChainSchema, Reference128Schema, TimestampSchema } from './common';

export const TRANSACTION_TYPES = [
  'DEPOSIT',
  'WITHDRAWAL',
  'INTERNAL_TRANSFER',
  'ADJUSTMENT',
] as const;
export const TRANSACTION_STATUSES = ['PENDING', 'CONFIRMED', 'FAILED', 'FAILED_ON_CHAIN'] as const;
export const TERMINAL_STATUSES = ['CONFIRMED', 'FAILED', 'FAILED_ON_CHAIN'] as const;
export const DIRECTIONS = ['DEBIT', 'CREDIT'] as const;
export const TRANSFER_KINDS = ['EXTERNAL_WITHDRAWAL', 'INTERNAL_TRANSFER', 'DEPOSIT'] as const;

export const TransactionTypeSchema = z.enum(TRANSACTION_TYPES);
export const TransactionStatusSchema = z.enum(TRANSACTION_STATUSES);
export type TransactionType = z.infer<typeof TransactionTypeSchema>;
export type TransactionStatus = z.infer<typeof TransactionStatusSchema>;
export type Direction = (typeof DIRECTIONS)[number];

export function isTerminalStatus(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/**
 * "A terminal status never goes back", the one rule for every copy of a transaction (the
 * console's cache, a list page, a live event): once a copy holds a terminal status, any other
 * status that arrives later (a lagging PENDING, or a different terminal state) is stale news
 * and must not replace it. The server only ever moves PENDING -> one terminal state.
 */
export function isStatusRegression(held: string, incoming: string): boolean {
  return isTerminalStatus(held) && incoming !== held;
}

// The inner shapes below are the sandbox's (DESIGN.md leaves them open); a real deployment
// may send others, so they are loose and every consumer treats unknown fields as data.
export const BalanceEffectSchema = z.lazy(() =>
  z.looseObject({
    walletId: z.string(),
    accountId: z.string(),
    asset: z.string(),
    kind: z.enum(['RESERVE', 'RELEASE', 'POST']),
    postedDeltaAtomic: SignedAtomicAmountSchema,
    reservedDeltaAtomic: SignedAtomicAmountSchema,
    at: TimestampSchema,
  }),
);
export type BalanceEffect = z.infer<typeof BalanceEffectSchema>;

export const OnChainDetailsSchema = z.lazy(() =>
  z.looseObject({
    txHash: z.string(),
    fromAddress: z.string(),
    toAddress: z.string(),
    blockNumber: z.nullable(z.int()),
    confirmations: z.int().check(z.nonnegative()),
    requiredConfirmations: z.int().check(z.positive()),
    broadcastAt: TimestampSchema,
  }),
);
export type OnChainDetails = z.infer<typeof OnChainDetailsSchema>;

export const NetworkFeeSummarySchema = z.lazy(() =>
  z.looseObject({
    asset: z.string(),
    estimatedFeeAtomic: AtomicAmountSchema,
    reservedFeeAtomic: AtomicAmountSchema,
    actualFeeAtomic: z.nullable(AtomicAmountSchema),
    feeLimitAtomic: z.nullable(AtomicAmountSchema),
  }),
);
export type NetworkFeeSummary = z.infer<typeof NetworkFeeSummarySchema>;

export const TransactionSchema = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    walletId: z.string(),
    account: z.looseObject({ id: z.string(), name: z.optional(z.string()) }),
    type: TransactionTypeSchema,
    status: TransactionStatusSchema,
    chain: ChainSchema,
    asset: z.string(),
    amountAtomic: AtomicAmountSchema,
    displayAmount: z.optional(z.string()),
    signedAmountAtomic: z.optional(SignedAtomicAmountSchema),
    direction: z.optional(z.enum(DIRECTIONS)),
    balanceEffects: z.optional(z.array(BalanceEffectSchema)),
    onChainDetails: z.nullable(OnChainDetailsSchema),
    networkFeeSummary: z.optional(z.nullable(NetworkFeeSummarySchema)),
    clientReference: z.optional(z.nullable(z.string())),
    billingReference: z.optional(z.nullable(z.string())),
    toAddress: z.optional(z.nullable(z.string())),
    fromAddress: z.optional(z.nullable(z.string())),
    transactionGroupId: z.optional(z.nullable(z.string())),
    counterpartTransactionId: z.optional(z.nullable(z.string())),
    transferKind: z.optional(z.enum(TRANSFER_KINDS)),
    failureCode: z.optional(z.nullable(z.string())),
    failureMessage: z.optional(z.nullable(z.string())),
    correlationId: z.optional(z.string()),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  }),
);
export type Transaction = z.infer<typeof TransactionSchema>;

export const FEE_LIMIT_MIN_ATOMIC = 1_000_000n; // 1 TRX
export const FEE_LIMIT_MAX_ATOMIC = 15_000_000_000n; // 15,000 TRX

export const ChainParamsSchema = z.lazy(() =>
  z.looseObject({
    feeLimitAtomic: z.optional(AtomicAmountSchema),
  }),
);

export const CreateTransactionRequestSchema = z.object({
  walletId: z.string().check(z.minLength(1)),
  asset: z.string().check(z.minLength(1)),
  toAddress: z.string().check(z.minLength(1)),
  amountAtomic: AtomicAmountSchema,
  clientReference: z.optional(Reference128Schema),
  chainParams: z.optional(ChainParamsSchema),
});
export type CreateTransactionRequest = z.infer<typeof CreateTransactionRequestSchema>;
