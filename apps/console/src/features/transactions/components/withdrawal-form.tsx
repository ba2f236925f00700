import type { AddressBookEntry, Asset, Balance, Wallet } from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode, SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { dryRunQuery } from '../api/dry-run';
import type { Destination } from '../model/destination';
import { exceedsWithOpenRequests } from '../model/open-requests-coverage';
import { checkWithdrawal, reviewOf } from '../model/withdrawal-check';
import type { WithdrawalReview } from '../model/withdrawal-check';
import type { WithdrawalDraft } from '../model/withdrawal-draft';
import { AddressBookField } from './address-book-field';
import { AddressInput } from './address-input';
import { AmountInput } from './amount-input';
import { PolicyPreview } from './policy-preview';
import { SourceWalletField } from './source-wallet-field';
import { AvailableBalance, NetworkFeeLine, OpenRequestsWarning } from './withdrawal-amount-info';

export function WithdrawalForm({
  notice,
  wallets,
  isWalletListPartial,
  availableByWallet,
  walletId,
  onWalletChange,
  balances,
  catalog,
  readiness,
  destination,
  addressBook,
  isAddressBookFailed,
  generatedReference,
  draft,
  onDraftChange,
  onReview,
  openRequests,
}: {
  /** Shown at the top of the form (for example: a restored draft that was not sent). */
  notice?: ReactNode;
  wallets: Wallet[];
  isWalletListPartial: boolean;
  /** Available balances per wallet as display text, for the picker. */
  availableByWallet: Record<string, string>;
  walletId: string;
  onWalletChange: (walletId: string) => void;
  balances: Balance[] | undefined;
  catalog: Asset[];
  readiness: { isReady: boolean; reason: string | null } | null;
  destination: Destination;
  /** The organization's address book; undefined while loading. */
  addressBook: readonly AddressBookEntry[] | undefined;
  isAddressBookFailed: boolean;
  /** Sent as the clientReference when the operator leaves it blank (shown, never hidden). */
  generatedReference: string;
  draft: WithdrawalDraft;
  onDraftChange: (draft: WithdrawalDraft) => void;
  onReview: (review: WithdrawalReview) => void;
  /**
   * Withdrawal requests awaiting approval or approved and not yet sent: what they take of a
   * wallet's asset. Null while unknown; 'unreadable' when the lists failed. `isAtLeast`: a
   * request list was full.
   */
  openRequests:
    | {
        committedFor: (walletId: string, asset: string) => { amountAtomic: bigint; count: number };
        isAtLeast: boolean;
      }
    | 'unreadable'
    | null;
}) {
  const [isSubmitted, setIsSubmitted] = useState(false);
  const wallet = wallets.find((w) => w.id === walletId) ?? null;
  const inputs = {
    wallet,
    catalog,
    balances,
    readiness,
    destination,
    addressBook,
    generatedReference,
    draft,
  };
  const check = checkWithdrawal(inputs);
  const { chain, assets, asset, nativeAsset, isToken, feeLimit, fee, max, amount, covered } = check;
  const { toAddressProblem, referenceProblem, isReferenceGenerated, canReview } = check;
  // The preview asks the policy once the fields settle; the form only reads that answer from the
  // cache. A withdrawal the policy blocks never reaches the review: the server's 403 stays the
  // last line of defence, not the first.
  const policyAnswer = useQuery({ ...dryRunQuery(check.dryRunRequest), enabled: false });
  const isBlockedByPolicy = policyAnswer.data?.action === 'BLOCK';
  const openCommitted =
    wallet && asset && openRequests && openRequests !== 'unreadable'
      ? {
          ...openRequests.committedFor(wallet.id, asset.asset),
          isAtLeast: openRequests.isAtLeast,
        }
      : null;
  const committed = openRequests === 'unreadable' ? openRequests : openCommitted;
  const isOverCommitted =
    openCommitted !== null &&
    balances !== undefined &&
    exceedsWithOpenRequests({
      amountAtomic: amount.atomic,
      isToken,
      fee,
      availableAtomic: check.available,
      committed: openCommitted,
    });
  const set = (patch: Partial<WithdrawalDraft>) => {
    onDraftChange({ ...draft, ...patch });
  };

  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    setIsSubmitted(true);
    const review = reviewOf(inputs, check);
    if (review) onReview(review);
  };

  return (
    <form onSubmit={handleSubmit} className="space-y-5 p-5" noValidate aria-label="New withdrawal">
      {notice}
      <SourceWalletField
        wallets={wallets}
        isWalletListPartial={isWalletListPartial}
        availableByWallet={availableByWallet}
        walletId={walletId}
        onWalletChange={onWalletChange}
        readiness={readiness}
        isSubmitted={isSubmitted}
      />
      {wallet ? (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Asset"
              value={asset?.asset ?? ''}
              onChange={(event) => {
                set({ asset: event.target.value, amount: '' });
              }}
              options={assets.map((a) => ({ value: a.asset, label: `${a.asset} — ${a.name}` }))}
            />
            <AvailableBalance
              isLoading={!balances}
              available={check.available}
              asset={asset}
              feeBalance={
                isToken && nativeAsset
                  ? { atomic: check.nativeAvailable, asset: nativeAsset }
                  : null
              }
              committed={committed}
            />
          </div>
          <AddressInput
            value={draft.toAddress}
            onChange={(toAddress) => {
              set({ toAddress });
            }}
            destination={destination}
            sourceChain={chain}
          />
          <AddressBookField
            entries={addressBook}
            isFailed={isAddressBookFailed}
            chain={chain}
            address={draft.toAddress}
            isAddressValid={check.isAddressValid}
            onChoose={(toAddress) => {
              set({ toAddress });
            }}
          />
          {isSubmitted && draft.toAddress === '' ? (
            <p className="text-xs font-medium text-red-700">{toAddressProblem}</p>
          ) : null}
          {asset ? (
            <AmountInput
              value={draft.amount}
              onChange={(value) => {
                set({ amount: value });
              }}
              decimals={asset.decimals}
              asset={asset.asset}
              maxAtomic={max}
              extraProblem={
                covered?.problem ??
                (isSubmitted && amount.atomic === null ? 'Enter an amount.' : null)
              }
            />
          ) : null}
          {asset && openCommitted && isOverCommitted ? (
            <OpenRequestsWarning
              committed={openCommitted}
              asset={asset}
              nativeFee={isToken ? null : fee}
            />
          ) : null}
          <NetworkFeeLine fee={fee} chain={chain} maxSendable={isToken ? null : max} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Client reference (optional)"
              value={draft.clientReference}
              onChange={(event) => {
                set({ clientReference: event.target.value });
              }}
              hint={
                isReferenceGenerated
                  ? `Left blank, the console sends ${generatedReference}. Your own: 1 to 128 characters, unique.`
                  : 'Your own unique reference, 1 to 128 characters.'
              }
              error={referenceProblem}
            />
            {isToken && nativeAsset ? (
              <TextField
                label={`Fee limit in ${nativeAsset.asset} (optional)`}
                inputMode="decimal"
                value={draft.feeLimit}
                onChange={(event) => {
                  set({ feeLimit: event.target.value.trim() });
                }}
                hint="Default 30. Between 1 and 15,000."
                error={feeLimit?.problem}
              />
            ) : null}
          </div>
          <PolicyPreview request={check.dryRunRequest} decimals={asset?.decimals ?? 0} />
        </>
      ) : null}
      <div className="flex items-center justify-end gap-3">
        {isBlockedByPolicy ? (
          <p className="text-sm text-red-800">The withdrawal policy blocks this withdrawal.</p>
        ) : null}
        {/* While the destination is being looked up, what the review would call it is unknown. */}
        <Button
          type="submit"
          variant="primary"
          disabled={
            !wallet ||
            destination.kind === 'checking' ||
            isBlockedByPolicy ||
            (isSubmitted && !canReview)
          }
        >
          Review withdrawal
        </Button>
      </div>
    </form>
  );
}
