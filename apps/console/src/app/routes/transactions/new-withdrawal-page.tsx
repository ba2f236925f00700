import { chainReadiness } from '@settlement/protocol';
import type { CreateTransactionRequest, Transaction } from '@settlement/protocol';
import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { formatAmount } from '../../../components/ui/amount';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader, Panel } from '../../../components/ui/page-header';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { mpcStatusQuery } from '../../../features/mpc/api/mpc-status';
import { roleReason } from '../../../features/session/permissions';
import { useCreateTransactionMutation } from '../../../features/transactions/api/create-transaction';
import {
  clearPendingWithdrawal,
  loadPendingWithdrawal,
  savePendingWithdrawal,
} from '../../../features/transactions/components/pending-withdrawal';
import {
  EMPTY_DRAFT,
  WithdrawalForm,
} from '../../../features/transactions/components/withdrawal-form';
import type { WithdrawalReview } from '../../../features/transactions/components/withdrawal-form';
import { WithdrawalReviewPanel } from '../../../features/transactions/components/withdrawal-review-panel';
import {
  adviceFor,
  unknownOutcomeOf,
} from '../../../features/transactions/components/withdrawal-errors';
import { walletListQuery } from '../../../features/wallets/api/list-wallets';
import { walletBalancesQuery } from '../../../features/wallets/api/wallet-balances';
import { isApiError } from '../../../lib/api-client';
import { newOperationId } from '../../../lib/operation-id';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useSession } from '../../shell/session-context';
import { useCatalog } from '../../use-catalog';
import { PendingWithdrawalPanel } from './pending-withdrawal-panel';

const PICKER_BALANCES = 25;

type Stage =
  | { kind: 'edit' }
  | { kind: 'review'; review: WithdrawalReview }
  | { kind: 'checking'; request: CreateTransactionRequest };

export function NewWithdrawalPage() {
  const { permissions } = useSession();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // A withdrawal still in flight (for example before a reload) resumes under its operation id.
  const [resumed] = useState(loadPendingWithdrawal);
  const [operationId, setOperationId] = useState(() => resumed?.operationId ?? newOperationId());
  const [stage, setStage] = useState<Stage>(() =>
    resumed ? { kind: 'checking', request: resumed.request } : { kind: 'edit' },
  );
  const [walletId, setWalletId] = useState(searchParams.get('walletId') ?? '');
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const mutation = useCreateTransactionMutation();
  const inFlight = useRef(false);

  const wallets = useInfiniteQuery(walletListQuery({ status: 'ACTIVE' }));
  const walletItems = wallets.data?.pages.flatMap((page) => page.items) ?? [];
  const balances = useQuery({ ...walletBalancesQuery(walletId), enabled: walletId !== '' });
  // The picker shows what each wallet can spend (first wallets only, to bound the requests).
  const pickerBalances = useQueries({
    queries: walletItems.slice(0, PICKER_BALANCES).map((w) => walletBalancesQuery(w.id)),
  });
  const mpc = useQuery(mpcStatusQuery());
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
  const address = useDebouncedValue(draft.toAddress);
  const own = useInfiniteQuery({
    ...walletListQuery({ addressContains: address }),
    enabled: address.length === 34,
  });
  const ownWallet =
    own.data?.pages.flatMap((p) => p.items).find((w) => w.address === address) ?? null;
  const wallet = walletItems.find((w) => w.id === walletId);
  const readiness = wallet && mpc.data ? chainReadiness(mpc.data, wallet.chain) : null;

  const handleCreated = useCallback(
    (transaction: Transaction) => {
      clearPendingWithdrawal();
      toast.success('Withdrawal accepted', { description: `Status ${transaction.status}` });
      void navigate(`/transactions/${encodeURIComponent(transaction.id)}`, { replace: true });
    },
    [navigate],
  );

  const send = (request: CreateTransactionRequest) => {
    // A ref, not render state: clicks that land before the next render must not send again.
    // (Were one to slip through, it would carry the same operation id and the BFF dedupes it.)
    if (inFlight.current) return;
    inFlight.current = true;
    savePendingWithdrawal(operationId, request);
    mutation.mutate(
      { request, operationId },
      {
        onSettled: () => {
          inFlight.current = false;
        },
        onSuccess: handleCreated,
        onError: (error) => {
          if (unknownOutcomeOf(error) !== null) {
            setStage({ kind: 'checking', request });
            return;
          }
          // A definite refusal created nothing: the pending record can go.
          if (!adviceFor(error).canRetry) clearPendingWithdrawal();
        },
      },
    );
  };

  const startOver = () => {
    clearPendingWithdrawal();
    mutation.reset();
    setOperationId(newOperationId());
    setStage({ kind: 'edit' });
  };

  if (!permissions.canCreateWithdrawal) {
    return (
      <>
        <PageHeader title="New withdrawal" />
        <EmptyState title="Not available for your role">
          {roleReason('send withdrawals', 'treasury')}
        </EmptyState>
      </>
    );
  }

  const advice = mutation.error ? adviceFor(mutation.error) : null;
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link to="/transactions" className="text-indigo-700 hover:underline">
          Transactions
        </Link>
      </nav>
      <PageHeader
        title="New withdrawal"
        description="Send an asset from one of your wallets. You review everything before anything is sent."
      />
      <Panel className="max-w-3xl">
        {stage.kind === 'checking' ? (
          <PendingWithdrawalPanel
            operationId={operationId}
            request={stage.request}
            isSending={mutation.isPending}
            onRetry={() => {
              send(stage.request);
            }}
            onCreated={handleCreated}
            onFailed={startOver}
          />
        ) : stage.kind === 'review' ? (
          <WithdrawalReviewPanel
            review={stage.review}
            operationId={operationId}
            isSending={mutation.isPending}
            // While the outcome may be open, the request cannot change (same id, same body).
            onBack={
              advice?.canRetry
                ? null
                : () => {
                    if (mutation.isError) {
                      mutation.reset();
                      setOperationId(newOperationId());
                    }
                    setStage({ kind: 'edit' });
                  }
            }
            onSend={() => {
              send(stage.review.request);
            }}
            sendLabel={advice?.canRetry ? 'Retry safely (same operation id)' : 'Send withdrawal'}
            status={
              advice ? (
                <div
                  role="alert"
                  className="mt-4 rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900"
                >
                  <p className="font-semibold">{advice.title}</p>
                  <p className="mt-1">{advice.advice}</p>
                  {isApiError(mutation.error) && mutation.error.requestId ? (
                    <p className="mt-2 text-xs">
                      Request id <code className="font-mono">{mutation.error.requestId}</code> ·{' '}
                      <Link
                        to={`/support?q=${encodeURIComponent(mutation.error.requestId)}`}
                        className="underline"
                      >
                        Look up in Support
                      </Link>
                    </p>
                  ) : null}
                  {!advice.canRetry && !advice.mustEdit ? (
                    <Button size="sm" className="mt-3" onClick={startOver}>
                      Start over
                    </Button>
                  ) : null}
                </div>
              ) : null
            }
          />
        ) : wallets.isPending ? (
          <TableSkeleton rows={4} label="Loading wallets" />
        ) : (
          <WithdrawalForm
            wallets={walletItems}
            availableByWallet={availableByWallet}
            walletId={walletId}
            onWalletChange={(id) => {
              setWalletId(id);
              setDraft((d) => ({ ...d, asset: '', amount: '' }));
            }}
            balances={balances.data}
            catalog={assets}
            readiness={
              walletId
                ? (readiness ??
                  (mpc.isError
                    ? { isReady: false, reason: 'The MPC status could not be read.' }
                    : null))
                : null
            }
            internalTarget={
              ownWallet
                ? {
                    walletId: ownWallet.id,
                    accountId: ownWallet.accountId,
                    accountName: ownWallet.accountName,
                  }
                : null
            }
            draft={draft}
            onDraftChange={setDraft}
            onReview={(review) => {
              setStage({ kind: 'review', review });
            }}
          />
        )}
      </Panel>
    </>
  );
}
