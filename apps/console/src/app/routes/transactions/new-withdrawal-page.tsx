import { chainReadiness, isTronAddress } from '@settlement/protocol';
import type {
  CreateTransactionRequest,
  Transaction,
  WithdrawalRequest,
} from '@settlement/protocol';
import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { formatAmount } from '../../../components/ui/amount';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { mpcStatusQuery } from '../../../features/mpc/api/mpc-status';
import { roleReason } from '../../../features/session/permissions';
import { addressBookQuery } from '../../../features/transactions/api/address-book';
import { useCreateTransactionMutation } from '../../../features/transactions/api/create-transaction';
import { ApprovalSentPanel } from '../../../features/transactions/components/approval-sent-panel';
import { classifyDestination } from '../../../features/transactions/model/destination';
import {
  clearPendingWithdrawal,
  loadPendingWithdrawal,
  savePendingWithdrawal,
} from '../../../features/transactions/model/pending-withdrawal';
import {
  clearDraft,
  loadDraft,
  saveDraft,
} from '../../../features/transactions/model/withdrawal-draft';
import type { SavedDraft } from '../../../features/transactions/model/withdrawal-draft';
import {
  EMPTY_DRAFT,
  WithdrawalForm,
} from '../../../features/transactions/components/withdrawal-form';
import type {
  WithdrawalDraft,
  WithdrawalReview,
} from '../../../features/transactions/components/withdrawal-form';
import { WithdrawalReviewPanel } from '../../../features/transactions/components/withdrawal-review-panel';
import {
  adviceFor,
  unknownOutcomeOf,
} from '../../../features/transactions/model/withdrawal-errors';
import { walletListQuery } from '../../../features/wallets/api/list-wallets';
import { walletBalancesQuery } from '../../../features/wallets/api/wallet-balances';
import { newOperationId } from '../../../lib/operation-id';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useSession } from '../../shell/session-context';
import { useCatalog } from '../../use-catalog';
import { PendingWithdrawalPanel } from './pending-withdrawal-panel';
import { RestoredDraftNotice, SendErrorAlert } from './withdrawal-notices';

const PICKER_BALANCES = 25;

type Stage =
  | { kind: 'edit' }
  | { kind: 'review'; review: WithdrawalReview }
  | { kind: 'checking'; request: CreateTransactionRequest }
  /** 202: the policy holds it for approvals; nothing went upstream. */
  | { kind: 'sent-for-approval'; request: WithdrawalRequest };

function draftOf({ walletId: _walletId, ...draft }: SavedDraft): WithdrawalDraft {
  return draft;
}

/** The clientReference sent when the operator leaves it blank: stable for the operation id. */
function generatedReference(operationId: string): string {
  return `wd-${operationId}`;
}

export function NewWithdrawalPage() {
  const { session, permissions } = useSession();
  const username = session.operator.username;
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // A withdrawal still in flight (for example before a reload) resumes under its operation id.
  const [resumed] = useState(() => loadPendingWithdrawal(username));
  const [operationId, setOperationId] = useState(() => resumed?.operationId ?? newOperationId());
  const [stage, setStage] = useState<Stage>(() =>
    resumed ? { kind: 'checking', request: resumed.request } : { kind: 'edit' },
  );
  // An unsent draft of this operator (signed out in another tab, or the session expired)
  // comes back, unless the link asks for another wallet.
  const [restored, setRestored] = useState(() => {
    const saved = resumed ? null : loadDraft(username);
    const asked = searchParams.get('walletId');
    return saved && (!asked || asked === saved.walletId) ? saved : null;
  });
  const [walletId, setWalletId] = useState(
    restored?.walletId ?? searchParams.get('walletId') ?? '',
  );
  const [draft, setDraft] = useState<WithdrawalDraft>(() =>
    restored ? draftOf(restored) : EMPTY_DRAFT,
  );
  const changeDraft = (nextWalletId: string, next: WithdrawalDraft) => {
    setWalletId(nextWalletId);
    setDraft(next);
    saveDraft(username, { walletId: nextWalletId, ...next });
  };
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
  const address = useDebouncedValue(draft.toAddress);
  // The organization's wallets at this address, on every chain: internal only on the same one.
  const own = useInfiniteQuery({
    ...walletListQuery({ addressContains: address }),
    enabled: isTronAddress(address),
  });
  const wallet = walletItems.find((w) => w.id === walletId);
  const readiness = wallet && mpc.data ? chainReadiness(mpc.data, wallet.chain) : null;
  const destination = wallet
    ? classifyDestination({
        address: draft.toAddress,
        isAddressValid: isTronAddress(draft.toAddress),
        source: wallet,
        // Until the lookup answers for exactly what is typed, the destination is not known.
        matches:
          address === draft.toAddress && own.data ? own.data.pages.flatMap((p) => p.items) : null,
        isLookupFailed: address === draft.toAddress && own.isError,
      })
    : ({ kind: 'none' } as const);

  const handleCreated = useCallback(
    (transaction: Transaction) => {
      clearPendingWithdrawal(username);
      clearDraft(username);
      toast.success('Withdrawal accepted', { description: `Status ${transaction.status}` });
      void navigate(`/transactions/${encodeURIComponent(transaction.id)}`, { replace: true });
    },
    [navigate, username],
  );

  // Held for approval: the request now carries the withdrawal, so the draft and the pending
  // record go, exactly as for a created withdrawal (a retry would replay the same request).
  const handleSentForApproval = (request: WithdrawalRequest) => {
    clearPendingWithdrawal(username);
    clearDraft(username);
    setRestored(null);
    setStage({ kind: 'sent-for-approval', request });
  };

  const send = (request: CreateTransactionRequest) => {
    // A ref, not render state: clicks that land before the next render must not send again.
    // (Were one to slip through, it would carry the same operation id and the BFF dedupes it.)
    if (inFlight.current) return;
    inFlight.current = true;
    savePendingWithdrawal(username, operationId, request);
    mutation.mutate(
      { request, operationId },
      {
        onSettled: () => {
          inFlight.current = false;
        },
        onSuccess: (outcome) => {
          if (outcome.kind === 'created') handleCreated(outcome.transaction);
          else handleSentForApproval(outcome.request);
        },
        onError: (error) => {
          if (unknownOutcomeOf(error) !== null) {
            setStage({ kind: 'checking', request });
            return;
          }
          // A definite refusal created nothing: the pending record can go (the draft stays).
          if (!adviceFor(error).canRetry) clearPendingWithdrawal(username);
        },
      },
    );
  };

  const startOver = () => {
    clearPendingWithdrawal(username);
    mutation.reset();
    setOperationId(newOperationId());
    // A resumed withdrawal that was refused or abandoned: its unsent draft comes back to edit.
    const saved = stage.kind === 'checking' ? loadDraft(username) : null;
    if (saved) {
      setRestored(saved);
      setWalletId(saved.walletId);
      setDraft(draftOf(saved));
    }
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
        {stage.kind === 'sent-for-approval' ? (
          <ApprovalSentPanel
            request={stage.request}
            decimals={decimalsFor(stage.request.asset)}
            onNewWithdrawal={() => {
              mutation.reset();
              setOperationId(newOperationId());
              setDraft(EMPTY_DRAFT);
              setStage({ kind: 'edit' });
            }}
          />
        ) : stage.kind === 'checking' ? (
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
            // Send only when it may help: never beside an error that says not to retry.
            onSend={
              !advice || advice.canRetry
                ? () => {
                    send(stage.review.request);
                  }
                : null
            }
            sendLabel={advice?.canRetry ? 'Retry safely (same operation id)' : 'Send withdrawal'}
            status={
              advice ? (
                <SendErrorAlert advice={advice} error={mutation.error} onStartOver={startOver} />
              ) : null
            }
          />
        ) : wallets.isPending ? (
          <TableSkeleton rows={4} label="Loading wallets" />
        ) : (
          <WithdrawalForm
            notice={
              restored ? (
                <RestoredDraftNotice
                  onDiscard={() => {
                    clearDraft(username);
                    setRestored(null);
                    setWalletId(searchParams.get('walletId') ?? '');
                    setDraft(EMPTY_DRAFT);
                  }}
                />
              ) : null
            }
            wallets={walletItems}
            availableByWallet={availableByWallet}
            walletId={walletId}
            onWalletChange={(id) => {
              changeDraft(id, { ...draft, asset: '', amount: '' });
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
            destination={destination}
            addressBook={addressBook.data}
            isAddressBookFailed={addressBook.isError}
            generatedReference={generatedReference(operationId)}
            draft={draft}
            onDraftChange={(next) => {
              changeDraft(walletId, next);
            }}
            onReview={(review) => {
              setStage({ kind: 'review', review });
            }}
          />
        )}
      </Panel>
    </>
  );
}
