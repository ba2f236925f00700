import { CreateTransactionRequestSchema } from '@settlement/protocol';
import type {
  AddressBookEntry,
  Asset,
  Balance,
  CreateTransactionRequest,
  DryRunRequest,
  Wallet,
} from '@settlement/protocol';
import { bookStatusOf } from './address-book-status';
import type { BookStatus } from './address-book-status';
import { addressProblem, destinationProblem } from './destination';
import type { Destination } from './destination';
import { dryRunRequestOf } from './policy-decision';
import type { WithdrawalDraft } from './withdrawal-draft';
import {
  coverage,
  feePlan,
  isTokenOn,
  maxAmount,
  nativeAssetOf,
  parseAmount,
  parseFeeLimit,
} from './withdrawal-math';
import type { AmountParse, Coverage, FeePlan } from './withdrawal-math';

/** What the review shows, and the request it sends. */
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

export type WithdrawalInputs = {
  wallet: Wallet | null;
  catalog: readonly Asset[];
  /** Undefined while loading. */
  balances: Balance[] | undefined;
  readiness: { isReady: boolean; reason: string | null } | null;
  destination: Destination;
  addressBook: readonly AddressBookEntry[] | undefined;
  /** Sent as the clientReference when the operator leaves it blank. */
  generatedReference: string;
  draft: WithdrawalDraft;
};

export type WithdrawalCheck = {
  chain: string;
  /** The assets enabled on the source wallet's chain, and the one chosen. */
  assets: Asset[];
  asset: Asset | null;
  nativeAsset: Asset | null;
  isToken: boolean;
  feeLimit: AmountParse | null;
  fee: FeePlan | null;
  available: bigint;
  nativeAvailable: bigint;
  max: bigint | null;
  amount: AmountParse;
  covered: Coverage | null;
  toAddressProblem: string | null;
  referenceProblem: string | null;
  isReferenceGenerated: boolean;
  isAddressValid: boolean;
  bookStatus: BookStatus | null;
  dryRunRequest: DryRunRequest | null;
  canReview: boolean;
};

function availableOf(balances: Balance[] | undefined, asset: string, chain: string): bigint {
  const balance = balances?.find((b) => b.asset === asset && b.chain === chain);
  return balance ? BigInt(balance.availableBalance) : 0n;
}

/** The protocol's message for a client reference it refuses; blank means "generate one". */
function referenceProblemOf(reference: string): string | null {
  if (reference === '') return null;
  const parsed = CreateTransactionRequestSchema.shape.clientReference.safeParse(reference);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Not a valid reference.');
}

/** Everything the withdrawal form derives from what is typed: amounts, fees, problems. */
export function checkWithdrawal(inputs: WithdrawalInputs): WithdrawalCheck {
  const { wallet, catalog, balances, readiness, destination, addressBook, draft } = inputs;
  const chain = wallet?.chain ?? '';
  const assets = catalog.filter((a) => a.chains.some((c) => c.chain === chain && c.enabled));
  const asset = assets.find((a) => a.asset === draft.asset) ?? assets[0] ?? null;
  const nativeAsset = nativeAssetOf(catalog, chain);
  const isToken = asset ? isTokenOn(asset, chain) : false;
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
  const referenceProblem = referenceProblemOf(draft.clientReference);
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
    (readiness?.isReady ?? false);
  return {
    chain,
    assets,
    asset,
    nativeAsset,
    isToken,
    feeLimit,
    fee,
    available,
    nativeAvailable,
    max,
    amount,
    covered,
    toAddressProblem,
    referenceProblem,
    isReferenceGenerated: draft.clientReference === '',
    isAddressValid,
    bookStatus,
    dryRunRequest,
    canReview,
  };
}

/**
 * The review of a withdrawal that may be reviewed, or null. The protocol's request schema is the
 * last check: what it refuses, the server would refuse too, so it never reaches the review.
 */
export function reviewOf(
  inputs: WithdrawalInputs,
  check: WithdrawalCheck,
): WithdrawalReview | null {
  const { wallet, destination, draft, generatedReference } = inputs;
  const { asset, fee, amount, isToken, feeLimit, isReferenceGenerated, bookStatus } = check;
  if (!check.canReview || !wallet || !asset || !fee || amount.atomic === null) return null;
  if (destination.kind !== 'internal' && destination.kind !== 'external') return null;
  const parsed = CreateTransactionRequestSchema.safeParse({
    walletId: wallet.id,
    asset: asset.asset,
    toAddress: draft.toAddress,
    amountAtomic: amount.atomic.toString(),
    clientReference: isReferenceGenerated ? generatedReference : draft.clientReference,
    ...(isToken && feeLimit?.atomic
      ? { chainParams: { feeLimitAtomic: feeLimit.atomic.toString() } }
      : {}),
  });
  if (!parsed.success) return null;
  return {
    request: parsed.data,
    wallet,
    decimals: asset.decimals,
    fee,
    isToken,
    destination,
    isReferenceGenerated,
    bookLabel: bookStatus?.kind === 'active' ? bookStatus.entry.label : null,
  };
}
