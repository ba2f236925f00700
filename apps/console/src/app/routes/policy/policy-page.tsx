import { useQuery } from '@tanstack/react-query';
import { useContext, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { PendingNotice, QueryView } from '../../../components/ui/query-view';
import { Skeleton, TableSkeleton } from '../../../components/ui/skeleton';
import { WalletDirectoryContext, walletDisplayName } from '../../../components/ui/wallet-name';
import { policyQuery, policyVersionsQuery } from '../../../features/governance/api/policy';
import { DryRunPanel } from '../../../features/governance/components/dry-run-panel';
import { PolicyEditor } from '../../../features/governance/components/policy-editor';
import { PolicyHistory } from '../../../features/governance/components/policy-history';
import { PolicyRules } from '../../../features/governance/components/policy-rules';
import { roleReason } from '../../../features/session/permissions';
import { everyWalletQuery } from '../../../features/wallets/api/list-wallets';
import { useSession } from '../../shell/session-context';
import { useCatalog } from '../../use-catalog';

export function PolicyPage() {
  const { session } = useSession();
  const { assets, decimalsFor } = useCatalog();
  const policy = useQuery(policyQuery());
  const versions = useQuery(policyVersionsQuery());
  const activeWallets = useQuery(everyWalletQuery({ status: 'ACTIVE' }));
  const named = useContext(WalletDirectoryContext);
  const wallets = (activeWallets.data?.items ?? []).map((w) => ({
    id: w.id,
    name: walletDisplayName(named(w.id) ?? { ...w, label: null }),
    address: w.address,
    chain: w.chain,
  }));
  const [isEditing, setIsEditing] = useState(false);
  const isAdmin = session.operator.role === 'admin';

  return (
    <>
      <PageHeader
        title="Withdrawal policy"
        description="Ordered rules (the first that matches decides; no match blocks) and limits over rolling windows."
        actions={
          isAdmin ? (
            <Button
              variant={isEditing ? 'secondary' : 'primary'}
              onClick={() => {
                setIsEditing(!isEditing);
              }}
            >
              {isEditing ? 'Close editor' : 'Edit policy'}
            </Button>
          ) : (
            <p className="text-sm text-slate-600">{roleReason('change the policy', 'admin')}</p>
          )
        }
      />
      <div className="space-y-6">
        <Panel title={policy.data ? `Version ${policy.data.version}` : 'Current policy'}>
          <QueryView query={policy} skeleton={<TableSkeleton label="Loading the policy" />}>
            {(current) =>
              isEditing ? (
                <PolicyEditor
                  key={current.version}
                  policy={current}
                  onSaved={() => {
                    setIsEditing(false);
                  }}
                />
              ) : (
                <PolicyRules policy={current} decimalsFor={decimalsFor} />
              )
            }
          </QueryView>
        </Panel>
        <Panel title="Dry run">
          {activeWallets.isError ? (
            // Wallets that could not be read are not "no ACTIVE wallet".
            <ErrorPanel
              title="The wallets could not be read"
              error={activeWallets.error}
              onRetry={() => void activeWallets.refetch()}
            />
          ) : activeWallets.isPending ? (
            // Not "No ACTIVE wallet" while they are still being read.
            <>
              <TableSkeleton rows={3} label="Loading the wallets" />
              <PendingNotice query={activeWallets} />
            </>
          ) : (
            <DryRunPanel
              assets={assets.map((a) => a.asset)}
              wallets={wallets}
              isWalletListPartial={activeWallets.data.isPartial}
              decimalsFor={decimalsFor}
            />
          )}
        </Panel>
        <Panel title="Version history">
          <QueryView query={versions} skeleton={<Skeleton className="h-32" />}>
            {(data) => <PolicyHistory versions={data.items} />}
          </QueryView>
        </Panel>
      </div>
    </>
  );
}
