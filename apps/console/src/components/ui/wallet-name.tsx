import { defaultWalletLabel, shortAddress } from '@settlement/protocol';
import { createContext, useContext } from 'react';
import { Link } from 'react-router';

/** What names a wallet: its treasury label (or null) and what the default label is built from. */
export type WalletIdentity = {
  id: string;
  accountName: string;
  chain: string;
  address: string;
  label: string | null;
};

/** Looks a wallet up by id (the app provides it from the overview); unknown ids give undefined. */
export const WalletDirectoryContext = createContext<
  (walletId: string) => WalletIdentity | undefined
>(() => undefined);

/** The label a person reads: the treasury's, else account name, chain and last 4 characters. */
export function walletDisplayName(wallet: WalletIdentity): string {
  return wallet.label ?? defaultWalletLabel(wallet);
}

/**
 * A wallet as people recognise it, wherever it appears: its label and its short address (the
 * full address in the title and to screen readers). Links to the wallet unless `isLink` is false.
 * A wallet known neither to the directory nor to the caller is its short id (the whole in the title).
 * `hasAddress` false: the caller shows the address itself (a copyable one), so it is not said twice.
 */
export function WalletName({
  walletId,
  wallet,
  isLink = true,
  hasAddress = true,
}: {
  walletId: string;
  /** What the caller already has; the directory's entry (with the label) wins when present. */
  wallet?: Omit<WalletIdentity, 'label'> & { label?: string | null };
  isLink?: boolean;
  hasAddress?: boolean;
}) {
  const lookup = useContext(WalletDirectoryContext);
  const known = lookup(walletId);
  const identity: WalletIdentity | null =
    known ?? (wallet ? { ...wallet, label: wallet.label ?? null } : null);
  const name = identity ? walletDisplayName(identity) : `Wallet ${shortAddress(walletId)}`;
  const body = (
    <span className="inline-flex min-w-0 flex-col leading-tight">
      <span className="truncate font-medium" title={identity ? undefined : walletId}>
        {name}
      </span>
      {identity && hasAddress ? (
        <span className="truncate font-mono text-xs text-slate-600" title={identity.address}>
          <span className="sr-only">address </span>
          {shortAddress(identity.address)}
        </span>
      ) : null}
    </span>
  );
  if (!isLink) return body;
  return (
    <Link
      to={`/wallets/${encodeURIComponent(walletId)}`}
      className="inline-flex max-w-full text-indigo-700 hover:underline"
    >
      {body}
    </Link>
  );
}
