import type {
  CreateTransactionRequest,
  Transaction,
  WithdrawalRequest,
} from '@settlement/protocol';
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { newOperationId } from '../../lib/operation-id';
import { showToast } from '../../lib/toasts';
import { useCreateTransactionMutation } from './api/create-transaction';
import {
  clearPendingWithdrawal,
  loadPendingWithdrawal,
  savePendingWithdrawal,
} from './model/pending-withdrawal';
import type { WithdrawalReview } from './model/withdrawal-check';
import { clearDraft, draftOf, EMPTY_DRAFT, loadDraft, saveDraft } from './model/withdrawal-draft';
import type { SavedDraft, WithdrawalDraft } from './model/withdrawal-draft';
import { adviceFor, unknownOutcomeOf } from './model/withdrawal-errors';

/**
 * edit -> review -> sent (created: the page leaves for the transaction), or held for approval
 * (202), or "checking" when the outcome is unknown (or resumed after a reload). Every send of
 * one withdrawal carries the same operation id, so the BFF can never create it twice.
 */
export type WithdrawalStage =
  | { kind: 'edit' }
  | { kind: 'review'; review: WithdrawalReview }
  | { kind: 'checking'; request: CreateTransactionRequest }
  /** 202: the policy holds it for approvals; nothing went upstream. */
  | { kind: 'sent-for-approval'; request: WithdrawalRequest };

/** The clientReference sent when the operator leaves it blank: stable for the operation id. */
function generatedReference(operationId: string): string {
  return `wd-${operationId}`;
}

/**
 * The new-withdrawal flow of one operator: the draft (kept per operator in sessionStorage), the
 * operation id, the send and its outcome. `askedWalletId` is the wallet a link asked for.
 */
export function useWithdrawalFlow({
  username,
  askedWalletId,
}: {
  username: string;
  askedWalletId: string | null;
}) {
  const navigate = useNavigate();
  // A withdrawal still in flight (for example before a reload) resumes under its operation id.
  const [resumed] = useState(() => loadPendingWithdrawal(username));
  const [operationId, setOperationId] = useState(() => resumed?.operationId ?? newOperationId());
  const [stage, setStage] = useState<WithdrawalStage>(() =>
    resumed ? { kind: 'checking', request: resumed.request } : { kind: 'edit' },
  );
  // An unsent draft of this operator (signed out in another tab, or the session expired)
  // comes back, unless the link asks for another wallet.
  const [restored, setRestored] = useState<SavedDraft | null>(() => {
    const saved = resumed ? null : loadDraft(username);
    return saved && (!askedWalletId || askedWalletId === saved.walletId) ? saved : null;
  });
  const [walletId, setWalletId] = useState(restored?.walletId ?? askedWalletId ?? '');
  const [draft, setDraft] = useState<WithdrawalDraft>(() =>
    restored ? draftOf(restored) : EMPTY_DRAFT,
  );
  const mutation = useCreateTransactionMutation();
  const inFlight = useRef(false);

  const changeDraft = (nextWalletId: string, next: WithdrawalDraft) => {
    setWalletId(nextWalletId);
    setDraft(next);
    saveDraft(username, { walletId: nextWalletId, ...next });
  };

  const handleCreated = useCallback(
    (transaction: Transaction) => {
      clearPendingWithdrawal(username);
      clearDraft(username);
      showToast('success', 'Withdrawal accepted', { description: `Status ${transaction.status}` });
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

  const advice = mutation.error ? adviceFor(mutation.error) : null;
  return {
    stage,
    operationId,
    generatedReference: generatedReference(operationId),
    walletId,
    draft,
    /** The unsent draft that came back, while the operator has not discarded it. */
    restored,
    isSending: mutation.isPending,
    error: mutation.error,
    /** What to do about the last send's error; null when there was none. */
    advice,
    send,
    startOver,
    handleCreated,
    changeWallet: (id: string) => {
      changeDraft(id, { ...draft, asset: '', amount: '' });
    },
    changeDraft: (next: WithdrawalDraft) => {
      changeDraft(walletId, next);
    },
    discardDraft: () => {
      clearDraft(username);
      setRestored(null);
      setWalletId(askedWalletId ?? '');
      setDraft(EMPTY_DRAFT);
    },
    openReview: (review: WithdrawalReview) => {
      setStage({ kind: 'review', review });
    },
    /** Null while the outcome may be open: the request cannot change (same id, same body). */
    backToEdit: advice?.canRetry
      ? null
      : () => {
          if (mutation.isError) {
            mutation.reset();
            setOperationId(newOperationId());
          }
          setStage({ kind: 'edit' });
        },
    newWithdrawal: () => {
      mutation.reset();
      setOperationId(newOperationId());
      setDraft(EMPTY_DRAFT);
      setStage({ kind: 'edit' });
    },
  };
}
