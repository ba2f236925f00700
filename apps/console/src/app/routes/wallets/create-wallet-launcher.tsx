import { chainReadiness } from '@settlement/protocol';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { chainLabel } from '../../../components/ui/chain-badge';
import { accountListQuery } from '../../../features/accounts/api/list-accounts';
import { mpcStatusQuery } from '../../../features/mpc/api/mpc-status';
import { defaultChain } from '../../../features/mpc/default-chain';
import { roleReason } from '../../../features/session/permissions';
import { CreateWalletDialog } from '../../../features/wallets/components/create-wallet-dialog';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useCatalog } from '../../use-catalog';
import { useSession } from '../../shell/session-context';

/** The "Create wallet" button and dialog: composes accounts, catalog and MPC readiness. */
export function CreateWalletLauncher({ defaultAccountId }: { defaultAccountId?: string }) {
  const { permissions } = useSession();
  const navigate = useNavigate();
  const [isOpen, setIsOpen] = useState(false);
  const [accountSearch, setAccountSearch] = useState('');
  const search = useDebouncedValue(accountSearch);
  const accounts = useInfiniteQuery({
    ...accountListQuery(search ? { search } : {}),
    enabled: isOpen,
  });
  const mpc = useQuery(mpcStatusQuery());
  const { enabledChains } = useCatalog();

  if (!permissions.canCreateWallet) {
    return <p className="text-sm text-slate-600">{roleReason('create wallets', 'treasury')}</p>;
  }
  const accountOptions =
    accounts.data?.pages.flatMap((page) =>
      page.items.map((account) => ({
        value: account.id,
        label: account.externalId ? `${account.name} (${account.externalId})` : account.name,
      })),
    ) ?? [];

  return (
    <>
      <Button
        variant="primary"
        onClick={() => {
          setIsOpen(true);
        }}
      >
        Create wallet
      </Button>
      <CreateWalletDialog
        isOpen={isOpen}
        onOpenChange={setIsOpen}
        accounts={accountOptions}
        isLoadingAccounts={accounts.isPending}
        onAccountSearch={setAccountSearch}
        defaultAccountId={defaultAccountId}
        chains={enabledChains.map((chain) => ({ value: chain, label: chainLabel(chain) }))}
        defaultChain={defaultChain(mpc.data, enabledChains)}
        readinessOf={(chain) =>
          mpc.data
            ? chainReadiness(mpc.data, chain)
            : mpc.isError
              ? { isReady: false, reason: 'The MPC status could not be read.' }
              : null
        }
        onCreated={(wallet) => {
          setIsOpen(false);
          void navigate(`/wallets/${encodeURIComponent(wallet.id)}`);
        }}
      />
    </>
  );
}
