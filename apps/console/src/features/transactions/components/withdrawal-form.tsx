import { CreateTransactionRequestSchema } from '@settlement/protocol';
import type {
  AddressBookEntry,
  Asset,
  Balance,
  CreateTransactionRequest,
  Wallet,
} from '@settlement/protocol';
import { useState } from 'react';
import type { ReactNode, SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { AddressBookField } from './address-book-field';
import { bookStatusOf } from '../model/address-book-status';
import { AddressInput, addressProblem } from './address-input';
import { destinationProblem } from '../model/destination';
import type { Destination } from '../model/destination';
import { AmountInput } from './amount-input';
import { dryRunRequestOf } from '../model/policy-decision';
import { PolicyPreview } from './policy-preview';
import { SourceWalletField } from './source-wallet-field';
import { AvailableBalance, NetworkFeeLine } from './withdrawal-amount-info';
import {
  coverage,
  feePlan,
  isTokenOn,
  maxAmount,
  nativeAssetOf,
  parseAmount,
  parseFeeLimit,
} from '../model/withdrawal-math';
import type { FeePlan } from '../model/withdrawal-math';

export type WithdrawalDraft = {
  asset: string;
  toAddress: string;
  amount: string;
  clientReference: string;
  feeLimit: string;
};

export const EMPTY_DRAFT: WithdrawalDraft = {
  asset: '',
  toAddress: '',
  amount: '',
  clientReference: '',
  feeLimit: '',
};

export type WithdrawalReview = {
  request: CreateTransactionRequest;
  wallet: Wallet;
  decimals: number;
  fee: FeePlan;
  isToken: boolean;
  /** Internal or external: the review only opens on a destination that may be sent to. */
  destination: Extract<Destination, { kind: 'internal' | 'external' }>;
  /** The operator left the reference blank: the console chose the one sent. */
  isReferenceGenerated: boolean;
  /** The destination's ACTIVE address-book label, when it has one. */
  bookLabel: string | null;
};

function availableOf(balances: Balance[] | undefined, asset: string, chain: string): bigint {
  const balance = balances?.find((b) => b.asset === asset && b.chain === chain);
  return balance ? BigInt(balance.availableBalance) : 0n;
}

export function WithdrawalForm({
  notice,
  wallets,
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
}: {
  /** Shown at the top of the form (for example: a restored draft that was not sent). */
  notice?: ReactNode;
  wallets: Wallet[];
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
}) {
  const [isSubmitted, setIsSubmitted] = useState(false);
  const wallet = wallets.find((w) => w.id === walletId) ?? null;
  const chain = wallet?.chain ?? '';
  const assets = catalog.filter((a) => a.chains.some((c) => c.chain === chain && c.enabled));
  const asset = assets.find((a) => a.asset === draft.asset) ?? assets[0] ?? null;
  const nativeAsset = nativeAssetOf(catalog, chain);
  const isToken = asset ? isTokenOn(asset, chain) : false;
  const set = (patch: Partial<WithdrawalDraft>) => {
    onDraftChange({ ...draft, ...patch });
  };

  const feeLimit =
    nativeAsset && isToken ? parseFeeLimit(draft.feeLimit, nativeAsset.decimals) : null;
  const fee = nativeAsset
    ? feePlan({ isToken, nativeAsset, feeLimitAtomic: feeLimit?.atomic ?? null })
    : null;
  const available = asset ? availableOf(balances, asset.asset, chain) : 0n;
  const nativeAvailable = nativeAsset ? availableOf(balances, nativeAsset.asset, chain) : 0n;
  const max = fee && balances ? maxAmount({ isToken, availableAtomic: available, fee }) : null;
  const amount = asset
    ? parseAmount(draft.amount, asset.decimals)
    : { atomic: null, problem: null };
  const covered =
    asset && fee && amount.atomic !== null && balances
      ? coverage({
          isToken,
          amountAtomic: amount.atomic,
          availableAtomic: available,
          nativeAvailableAtomic: nativeAvailable,
          fee,
          decimals: asset.decimals,
          asset: asset.asset,
        })
      : null;
  const toAddressProblem = addressProblem(draft.toAddress);
  const blockingDestination = destinationProblem(destination, chain);
  const referenceProblem = draft.clientReference.length > 128 ? 'At most 128 characters.' : null;
  const isReferenceGenerated = draft.clientReference === '';
  const clientReference = isReferenceGenerated ? generatedReference : draft.clientReference;
  const isReady = readiness?.isReady ?? false;
  const isAddressValid = draft.toAddress !== '' && toAddressProblem === null;
  const bookStatus =
    addressBook && isAddressValid ? bookStatusOf(addressBook, chain, draft.toAddress) : null;
  // Asked only when the destination may be sent to at all (not the source, not another chain).
  const dryRunRequest =
    wallet && asset && !blockingDestination
      ? dryRunRequestOf({
          walletId: wallet.id,
          asset: asset.asset,
          toAddress: draft.toAddress,
          amountAtomic: amount.atomic,
          isAddressValid,
        })
      : null;
  const canReview =
    Boolean(wallet && asset && fee && amount.atomic !== null) &&
    !toAddressProblem &&
    !blockingDestination &&
    (destination.kind === 'internal' || destination.kind === 'external') &&
    !referenceProblem &&
    !feeLimit?.problem &&
    (covered?.isCovered ?? false) &&
    isReady;

  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    setIsSubmitted(true);
    if (!canReview || !wallet || !asset || !fee || amount.atomic === null) return;
    // The protocol's request schema is the last check before the review: what it refuses, the
    // server would refuse too, so it never reaches the review.
    const parsed = CreateTransactionRequestSchema.safeParse({
      walletId: wallet.id,
      asset: asset.asset,
      toAddress: draft.toAddress,
      amountAtomic: amount.atomic.toString(),
      clientReference,
      ...(isToken && feeLimit?.atomic
        ? { chainParams: { feeLimitAtomic: feeLimit.atomic.toString() } }
        : {}),
    });
    if (!parsed.success) return;
    const request: CreateTransactionRequest = parsed.data;
    onReview({
      request,
      wallet,
      decimals: asset.decimals,
      fee,
      isToken,
      destination,
      isReferenceGenerated,
      bookLabel: bookStatus?.kind === 'active' ? bookStatus.entry.label : null,
    });
  };

  return (
    <form onSubmit={handleSubmit} className="space-y-5 p-5" noValidate aria-label="New withdrawal">
      {notice}
      <SourceWalletField
        wallets={wallets}
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
              available={available}
              asset={asset}
              feeBalance={
                isToken && nativeAsset ? { atomic: nativeAvailable, asset: nativeAsset } : null
              }
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
            isAddressValid={isAddressValid}
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
          <PolicyPreview request={dryRunRequest} decimals={asset?.decimals ?? 0} />
        </>
      ) : null}
      <div className="flex justify-end">
        {/* While the destination is being looked up, what the review would call it is unknown. */}
        <Button
          type="submit"
          variant="primary"
          disabled={!wallet || destination.kind === 'checking' || (isSubmitted && !canReview)}
        >
          Review withdrawal
        </Button>
      </div>
    </form>
  );
}
