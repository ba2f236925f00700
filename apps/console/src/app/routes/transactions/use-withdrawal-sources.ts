import { chainReadiness, isTronAddress } from '@settlement/protocol';
import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { formatAmount } from '../../../components/ui/amount';
import { mpcStatusQuery } from '../../../features/mpc/api/mpc-status';
import { addressBookQuery } from '../../../features/transactions/api/address-book';
import { classifyDestination } from '../../../features/transactions/model/destination';
import { everyWalletQuery, walletListQuery } from '../../../features/wallets/api/list-wallets';
import { walletBalancesQuery } from '../../../features/wallets/api/wallet-balances';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useCatalog } from '../../use-catalog';

const PICKER_BALANCES = 25;

/**
 * What the withdrawal form reads from the other features: the ACTIVE wallets with what each can
 * spend, the chosen wallet's balances, MPC readiness, the address book, and what the typed
 * address is to the organization.
 */
export function useWithdrawalSources({
  walletId,
  toAddress,
}: {
  walletId: string;
  toAddress: string;
}) {
  const wallets = useQuery(everyWalletQuery({ status: 'ACTIVE' }));
  const walletItems = wallets.data?.items ?? [];
  const balances = useQuery({ ...walletBalancesQuery(walletId), enabled: walletId !== '' });
  // The picker shows what each wallet can spend (first wallets only, to bound the requests).
  const pickerBalances = useQueries({
    queries: walletItems.slice(0, PICKER_BALANCES).map((w) => walletBalancesQuery(w.id)),
  });
  const mpc = useQuery(mpcStatusQuery());
  const addressBook = useQuery(addressBookQuery());
  const { assets, decimalsFor } = useCatalog();
  const availableByWallet: Record<string, string> = {};
  walletItems.slice(0, PICKER_BALANCES).forEach((w, index) => {
    const items = pickerBalances[index]?.data;
    if (!items) return;
    availableByWallet[w.id] = items
      .filter((b) => b.chain === w.chain)
      .map((b) => `${formatAmount(b.availableBalance, decimalsFor(b.asset))} ${b.asset}`)
      .join(', ');
  });
  const address = useDebouncedValue(toAddress);
  // The organization's wallets at this address, on every chain: internal only on the same one.
  const own = useInfiniteQuery({
    ...walletListQuery({ addressContains: address }),
    enabled: isTronAddress(address),
  });
  const wallet = walletItems.find((w) => w.id === walletId);
  const readiness = wallet && mpc.data ? chainReadiness(mpc.data, wallet.chain) : null;
  const destination = wallet
    ? classifyDestination({
        address: toAddress,
        isAddressValid: isTronAddress(toAddress),
        source: wallet,
        // Until the lookup answers for exactly what is typed, the destination is not known.
        matches: address === toAddress && own.data ? own.data.pages.flatMap((p) => p.items) : null,
        isLookupFailed: address === toAddress && own.isError,
      })
    : ({ kind: 'none' } as const);

  return {
    /** The ACTIVE wallets' read, for its pending state (what a slow read says). */
    walletsQuery: wallets,
    /** The wallets could not be read: not the same as having none. */
    walletsError: wallets.isError ? wallets.error : null,
    retryWallets: () => void wallets.refetch(),
    wallets: walletItems,
    isWalletListPartial: wallets.data?.isPartial ?? false,
    availableByWallet,
    balances: balances.data,
    catalog: assets,
    decimalsFor,
    readiness: walletId
      ? (readiness ??
        (mpc.isError ? { isReady: false, reason: 'The MPC status could not be read.' } : null))
      : null,
    destination,
    addressBook: addressBook.data,
    isAddressBookFailed: addressBook.isError,
  };
}
