import { z } from 'zod/mini';
import { TimestampSchema } from '../schemas/common';

/**
 * Wallet labels (`GET /bff/wallet-labels`, `PUT /bff/wallet-labels/{walletId}`): the upstream
 * gives wallets no name, so the BFF keeps an optional one per wallet. Treasury and admin edit
 * it; every change is audited.
 */

export const WALLET_LABEL_MAX = 64;

/** Printable text, no line breaks or control characters (it is shown in one line). */
export const WalletLabelTextSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'Enter a label, or clear it to use the default.'),
    z.maxLength(WALLET_LABEL_MAX, `At most ${WALLET_LABEL_MAX} characters.`),
    z.regex(/^[^\p{Cc}\p{Cf}]+$/u, 'Use letters, digits and punctuation only.'),
  );

export const WalletLabelSchema = z.lazy(() =>
  z.object({
    walletId: z.string(),
    label: z.string(),
    updatedAt: TimestampSchema,
    updatedBy: z.string(),
  }),
);
export type WalletLabel = z.infer<typeof WalletLabelSchema>;

export const WalletLabelListSchema = z.lazy(() => z.object({ items: z.array(WalletLabelSchema) }));
export type WalletLabelList = z.infer<typeof WalletLabelListSchema>;

/** The body of PUT: a label, or null to remove it (the default label shows again). */
export const PutWalletLabelRequestSchema = z.lazy(() =>
  z.object({
    label: z.nullable(WalletLabelTextSchema),
  }),
);
export type PutWalletLabelRequest = z.infer<typeof PutWalletLabelRequestSchema>;

/** The answer of PUT: the stored label, or null once removed. */
export const PutWalletLabelResponseSchema = z.lazy(() =>
  z.object({
    walletId: z.string(),
    label: z.nullable(WalletLabelSchema),
  }),
);

const CHAIN_NAMES: Record<string, string> = { 'tron:mainnet': 'Mainnet', 'tron:nile': 'Nile' };

/** The chain as a person says it ("Nile" for tron:nile); the raw id for one we do not know. */
export function chainName(chain: string): string {
  return CHAIN_NAMES[chain] ?? chain;
}

/** A wallet's name when nobody labelled it: account name, chain, last 4 characters of its address. */
export function defaultWalletLabel(wallet: {
  accountName: string;
  chain: string;
  address: string;
}): string {
  return `${wallet.accountName} · ${chainName(wallet.chain)} · ${wallet.address.slice(-4)}`;
}

/** "TXyz12…9fQk": enough of both ends to compare with another screen, short enough for a phone. */
export function shortAddress(address: string): string {
  return address.length <= 14 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}
