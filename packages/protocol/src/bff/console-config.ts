import { z } from 'zod/mini';
import { ChainSchema } from '../schemas/common';

/**
 * `GET /bff/config`: settings the console needs that are not part of the session. Block-explorer
 * base URLs are configured in the BFF (EXPLORER_URLS); a chain without one gets no links.
 */

export const ExplorerSchema = z.lazy(() =>
  z.object({
    chain: ChainSchema,
    /** http(s) origin and optional path, without a trailing slash. */
    baseUrl: z.url({ protocol: /^https?$/ }),
  }),
);
export type Explorer = z.infer<typeof ExplorerSchema>;

export const ConsoleConfigSchema = z.lazy(() => z.object({ explorers: z.array(ExplorerSchema) }));
export type ConsoleConfig = z.infer<typeof ConsoleConfigSchema>;

export type ExplorerTarget = 'transaction' | 'address';

/**
 * The explorer page of a tx hash or an address, or null when the chain has no explorer. TRON
 * explorers (Tronscan and Nile Tronscan) route in the fragment: `/#/transaction/<hash>`.
 */
export function explorerUrl(
  explorers: readonly Explorer[],
  chain: string,
  target: ExplorerTarget,
  value: string,
): string | null {
  const explorer = explorers.find((e) => e.chain === chain);
  if (!explorer || value === '') return null;
  const base = explorer.baseUrl.replace(/\/+$/, '');
  return `${base}/#/${target}/${encodeURIComponent(value)}`;
}
