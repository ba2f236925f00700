import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { PendingNotice } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { useOpenRequests } from '../../../features/governance/api/open-requests';
import { committedFor } from '../../../features/governance/model/open-requests';
import { roleReason } from '../../../features/session/permissions';
import { ApprovalSentPanel } from '../../../features/transactions/components/approval-sent-panel';
import { WithdrawalForm } from '../../../features/transactions/components/withdrawal-form';
import { WithdrawalReviewPanel } from '../../../features/transactions/components/withdrawal-review-panel';
import { useWithdrawalFlow } from '../../../features/transactions/use-withdrawal-flow';
import { useSession } from '../../shell/session-context';
import { PendingWithdrawalPanel } from './pending-withdrawal-panel';
import { useWithdrawalSources } from './use-withdrawal-sources';
import { RestoredDraftNotice, SendErrorAlert } from './withdrawal-notices';

export function NewWithdrawalPage() {
  const { permissions } = useSession();
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
        <WithdrawalFlowView />
      </Panel>
    </>
  );
}

/** The stage the withdrawal is in: the form, its review, the open outcome, or held for approval. */
function WithdrawalFlowView() {
  const { session } = useSession();
  const [searchParams] = useSearchParams();
  const flow = useWithdrawalFlow({
    username: session.operator.username,
    askedWalletId: searchParams.get('walletId'),
  });
  const sources = useWithdrawalSources({
    walletId: flow.walletId,
    toAddress: flow.draft.toAddress,
  });
  const { open, isError: isOpenRequestsError } = useOpenRequests();
  const { stage } = flow;

  switch (stage.kind) {
    case 'sent-for-approval':
      return (
        <ApprovalSentPanel
          request={stage.request}
          decimals={sources.decimalsFor(stage.request.asset)}
          onNewWithdrawal={flow.newWithdrawal}
        />
      );
    case 'checking':
      return (
        <PendingWithdrawalPanel
          operationId={flow.operationId}
          request={stage.request}
          isSending={flow.isSending}
          onRetry={() => {
            flow.send(stage.request);
          }}
          onCreated={flow.handleCreated}
          onFailed={flow.startOver}
        />
      );
    case 'review':
      return (
        <WithdrawalReviewPanel
          review={stage.review}
          operationId={flow.operationId}
          isSending={flow.isSending}
          onBack={flow.backToEdit}
          // Send only when it may help: never beside an error that says not to retry.
          onSend={
            !flow.advice || flow.advice.canRetry
              ? () => {
                  flow.send(stage.review.request);
                }
              : null
          }
          retryLabel={flow.advice?.canRetry ? 'Retry safely (same operation id)' : null}
          status={
            flow.advice ? (
              <SendErrorAlert
                advice={flow.advice}
                error={flow.error}
                onStartOver={flow.startOver}
              />
            ) : null
          }
        />
      );
    case 'edit':
      if (sources.walletsError) {
        return (
          <ErrorPanel
            title="The wallets could not be read"
            error={sources.walletsError}
            onRetry={sources.retryWallets}
          />
        );
      }
      return sources.walletsQuery.isPending ? (
        <>
          <TableSkeleton rows={4} label="Loading wallets" />
          <PendingNotice query={sources.walletsQuery} />
        </>
      ) : (
        <WithdrawalForm
          notice={flow.restored ? <RestoredDraftNotice onDiscard={flow.discardDraft} /> : null}
          wallets={sources.wallets}
          isWalletListPartial={sources.isWalletListPartial}
          availableByWallet={sources.availableByWallet}
          walletId={flow.walletId}
          onWalletChange={flow.changeWallet}
          balances={sources.balances}
          catalog={sources.catalog}
          readiness={sources.readiness}
          destination={sources.destination}
          addressBook={sources.addressBook}
          isAddressBookFailed={sources.isAddressBookFailed}
          generatedReference={flow.generatedReference}
          draft={flow.draft}
          onDraftChange={flow.changeDraft}
          onReview={flow.openReview}
          openRequests={
            isOpenRequestsError
              ? 'unreadable'
              : open
                ? {
                    committedFor: (walletId, asset) => committedFor(open, walletId, asset),
                    isAtLeast: open.isAtLeast,
                  }
                : null
          }
        />
      );
  }
}
