import { z } from 'zod/mini';
import { AtomicAmountSchema } from '../amounts';
import { ChainSchema } from './common';

/** One balance projection: per asset and chain, atomic strings (DESIGN.md). */
export const BalanceSchema = z.lazy(() =>
  z.looseObject({
    asset: z.string(),
    chain: ChainSchema,
    postedBalance: AtomicAmountSchema,
    availableBalance: AtomicAmountSchema,
    reservedBalance: AtomicAmountSchema,
  }),
);
export type Balance = z.infer<typeof BalanceSchema>;

export const BalanceListSchema = z.lazy(() => z.looseObject({ items: z.array(BalanceSchema) }));
export type BalanceList = z.infer<typeof BalanceListSchema>;
