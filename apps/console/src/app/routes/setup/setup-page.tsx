import { CHAINS } from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { chainLabel } from '../../../components/ui/chain-badge';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { SelectField } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { Skeleton } from '../../../components/ui/skeleton';
import { coSignerHealthQuery } from '../../../features/mpc/api/co-signer-health';
import { useInitializeMpcMutation } from '../../../features/mpc/api/initialize-mpc';
import { mpcStatusQuery } from '../../../features/mpc/api/mpc-status';
import { ReadinessPanel } from '../../../features/mpc/components/readiness-panel';
import { isSetupComplete, setupSteps } from '../../../features/mpc/model/setup-steps';
import { SetupWalkthrough } from '../../../features/mpc/components/setup-walkthrough';
import { defaultChain } from '../../../features/mpc/default-chain';
import { CoSignerSwitch } from '../../../features/sandbox/components/co-signer-switch';
import { roleReason } from '../../../features/session/permissions';
import { newOperationId } from '../../../lib/operation-id';
import { useSession } from '../../shell/session-context';

export function SetupPage() {
  const { session, permissions } = useSession();
  const status = useQuery(mpcStatusQuery(true));
  const health = useQuery(coSignerHealthQuery());
  const [chosenChain, setChosenChain] = useState('');
  const [operationId] = useState(newOperationId);
  const initialize = useInitializeMpcMutation();

  const chains = status.data?.chains.map((c) => c.chain) ?? [];
  // The same default as Create wallet; before the status arrives, over every known chain.
  const targetChain =
    chosenChain || (defaultChain(status.data, chains.length ? chains : CHAINS) ?? '');
  const steps = setupSteps({ health: health.data, status: status.data, targetChain });
  const isComplete = isSetupComplete(steps);
  const isOnline = status.data?.coSigner.status === 'ONLINE';
  const isSandbox = session.upstream.kind === 'sandbox';

  const coSignerTools = permissions.canUseSandboxTools ? (
    <>
      <Badge tone="warning">Sandbox tool</Badge>
      <CoSignerSwitch
        isOnline={isOnline}
        isKnown={status.data !== undefined}
        onSwitched={() => Promise.all([status.refetch(), health.refetch()])}
      />
    </>
  ) : isSandbox ? (
    <p className="text-sm text-slate-600">
      An admin can start the sandbox's simulated Co-Signer here.
    </p>
  ) : (
    <p className="text-sm text-slate-600">
      Run the Co-Signer on your organization's host with its API credentials, then come back here.
    </p>
  );

  return (
    <>
      <PageHeader
        title="Setup"
        description="MPC readiness and onboarding: bring the Co-Signer online and initialize the organization's signing key."
        actions={
          isComplete ? (
            <Badge tone="success">Ready</Badge>
          ) : (
            <Badge tone="warning">Setup incomplete</Badge>
          )
        }
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Panel
          title="Walkthrough"
          actions={
            chains.length > 1 ? (
              <div className="w-56">
                <SelectField
                  label="Target chain"
                  value={targetChain}
                  onChange={(event) => {
                    setChosenChain(event.target.value);
                  }}
                  options={chains.map((c) => ({ value: c, label: chainLabel(c) }))}
                />
              </div>
            ) : null
          }
        >
          <SetupWalkthrough
            steps={steps}
            actions={{
              install: coSignerTools,
              health: (
                <>
                  <Button
                    size="sm"
                    onClick={() => void health.refetch()}
                    disabled={health.isFetching}
                  >
                    {health.isFetching ? 'Checking…' : 'Check health again'}
                  </Button>
                  {health.error ? (
                    <ErrorPanel error={health.error} title="The health check failed" />
                  ) : null}
                </>
              ),
              online: (
                <Button
                  size="sm"
                  onClick={() => void status.refetch()}
                  disabled={status.isFetching}
                >
                  Refresh status
                </Button>
              ),
              initialize:
                status.data?.keyStatus === null ? (
                  permissions.canInitializeMpc ? (
                    <>
                      <Button
                        variant="primary"
                        disabled={!isOnline || initialize.isPending}
                        onClick={() => {
                          initialize.mutate(operationId);
                        }}
                      >
                        {initialize.isPending ? 'Initializing…' : 'Initialize MPC key'}
                      </Button>
                      {!isOnline ? (
                        <span className="text-sm text-slate-600">
                          Bring the Co-Signer Online first.
                        </span>
                      ) : null}
                      {initialize.error ? (
                        <ErrorPanel
                          error={initialize.error}
                          title="Initialization was not accepted"
                        />
                      ) : null}
                    </>
                  ) : (
                    <p className="text-sm text-slate-600">
                      {roleReason('initialize the MPC key', 'admin')}
                    </p>
                  )
                ) : null,
              ready: isComplete ? (
                <Link to="/wallets" className="text-sm font-medium text-indigo-700 underline">
                  Create a wallet
                </Link>
              ) : status.data?.keyStatus ? (
                <span role="status" className="text-sm text-slate-600">
                  Checking every 2 seconds…
                </span>
              ) : null,
            }}
          />
        </Panel>
        <Panel title="Live status">
          <QueryView
            query={status}
            skeleton={
              <div className="space-y-3 p-4">
                <Skeleton className="h-5 w-1/2" />
                <Skeleton className="h-5 w-2/3" />
                <Skeleton className="h-16 w-full" />
              </div>
            }
          >
            {(data) => <ReadinessPanel status={data} />}
          </QueryView>
        </Panel>
      </div>
    </>
  );
}
