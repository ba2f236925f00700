import { useQuery } from '@tanstack/react-query';
import { useLayoutEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { Amount } from '../../../components/ui/amount';
import { Button } from '../../../components/ui/button';
import { ChainWithBadge } from '../../../components/ui/chain-badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { DetailList } from '../../../components/ui/page-header';
import { WalletName } from '../../../components/ui/wallet-name';
import { useIsSlow } from '../../../lib/use-is-slow';
import { dryRunQuery } from '../api/dry-run';
import { dryRunRequestOf } from '../model/policy-decision';
import { PolicyPreview } from './policy-preview';
import type { WithdrawalReview } from '../model/withdrawal-check';

/** The last look before money moves: atomic amount, fee, total and destination. */
export function WithdrawalReviewPanel({
  review,
  operationId,
  isSending,
  onBack,
  onSend,
  status,
  retryLabel,
}: {
  review: WithdrawalReview;
  operationId: string;
  isSending: boolean;
  onBack: (() => void) | null;
  /** Null when sending cannot help (the error's code and `retryable` say so): no Send then. */
  onSend: (() => void) | null;
  status?: ReactNode;
  /** Set when the last send failed in a way a resend of the same operation may fix. */
  retryLabel: string | null;
}) {
  const { request, wallet, decimals, fee, isToken, destination, isReferenceGenerated, bookLabel } =
    review;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const isSlowToSend = useIsSlow(isSending);
  // Moving to the review step moves focus too, so keyboard and screen-reader users land on it
  // (in the commit that shows it, see SignedOutScreen).
  useLayoutEffect(() => {
    headingRef.current?.focus();
  }, []);
  const amount = BigInt(request.amountAtomic);
  const dryRunRequest = dryRunRequestOf({
    walletId: request.walletId,
    asset: request.asset,
    toAddress: request.toAddress,
    amountAtomic: amount,
    isAddressValid: true,
  });
  // The same cached answer the policy preview below shows: the button says what a tap does.
  const dryRun = useQuery(dryRunQuery(dryRunRequest));
  const sendLabel =
    retryLabel ??
    (dryRun.data?.action === 'REQUIRE_APPROVAL' ? 'Request approval' : 'Send withdrawal');
  const feeItems = isToken
    ? [
        {
          label: 'Network fee',
          value: (
            <span>
              up to{' '}
              <Amount atomic={fee.feeAtomic} decimals={fee.feeDecimals} asset={fee.feeAsset} /> (fee
              limit, reserved)
            </span>
          ),
        },
        {
          label: 'Total',
          value: (
            <span className="font-semibold">
              <Amount atomic={amount} decimals={decimals} asset={request.asset} /> + up to{' '}
              <Amount atomic={fee.feeAtomic} decimals={fee.feeDecimals} asset={fee.feeAsset} />
            </span>
          ),
        },
      ]
    : [
        {
          label: 'Network fee',
          value: <Amount atomic={fee.feeAtomic} decimals={fee.feeDecimals} asset={fee.feeAsset} />,
        },
        {
          label: 'Total debited',
          value: (
            <Amount
              atomic={amount + fee.feeAtomic}
              decimals={decimals}
              asset={request.asset}
              className="font-semibold"
            />
          ),
        },
      ];

  return (
    // No bottom padding below lg: there the action bar is the card's last strip.
    <section aria-labelledby="review-heading" className="p-5 max-lg:pb-0">
      <h2
        id="review-heading"
        ref={headingRef}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 focus:outline-none"
      >
        Review the withdrawal
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {isSending
          ? 'Sending it now, under the operation id below.'
          : 'Nothing has been sent yet. Check every line.'}
      </p>
      <DetailList
        items={[
          {
            // The wallet as the treasury names it, then the exact address money leaves from.
            label: 'From',
            value: (
              <span className="space-y-1">
                <span className="block">
                  <WalletName
                    walletId={wallet.id}
                    wallet={wallet}
                    isLink={false}
                    hasAddress={false}
                  />
                </span>
                <span className="block font-mono text-xs break-all">{wallet.address}</span>
              </span>
            ),
          },
          { label: 'Account', value: wallet.accountName },
          {
            // A testnet says so here too: the last look before money moves.
            label: 'Chain',
            value: <ChainWithBadge chain={wallet.chain} />,
          },
          {
            label: 'To',
            value: (
              <span className="space-y-1">
                <span className="block font-mono text-xs break-all">{request.toAddress}</span>
                {destination.kind === 'internal' ? (
                  <span className="block text-sky-900">
                    Internal transfer to account {destination.wallet.accountName}
                  </span>
                ) : (
                  <span className="block text-slate-600">External withdrawal</span>
                )}
                {bookLabel ? (
                  <span className="block text-emerald-900">Address book: {bookLabel}</span>
                ) : null}
              </span>
            ),
          },
          {
            label: 'Amount',
            value: (
              <Amount
                atomic={amount}
                decimals={decimals}
                asset={request.asset}
                className="text-base font-semibold"
              />
            ),
          },
          {
            label: 'Atomic amount',
            value: <span className="font-mono text-xs">{request.amountAtomic}</span>,
          },
          ...feeItems,
          {
            label: 'Client reference',
            value: (
              <span className="space-y-1">
                <span className="block font-mono text-xs break-all">{request.clientReference}</span>
                {isReferenceGenerated ? (
                  <span className="block text-slate-600">
                    Generated by the console: you left it blank.
                  </span>
                ) : null}
              </span>
            ),
          },
          { label: 'Operation id', value: <CopyableId value={operationId} label="operation id" /> },
        ]}
      />
      {/* The same answer the form showed (cached), asked again if it has gone stale. */}
      <div className="mt-4">
        <PolicyPreview request={dryRunRequest} decimals={decimals} />
      </div>
      {status}
      {/* Below lg the actions stick to the bottom of the screen, where a thumb reaches them
          without scrolling past the details; the inset keeps them above a phone's home bar. On a
          phone the buttons share the row, so the bar stays one button tall. */}
      <div className="sticky bottom-0 z-10 -mx-5 mt-4 flex flex-wrap gap-2 rounded-b-lg border-t border-slate-200 bg-white/95 px-5 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] backdrop-blur sm:justify-end lg:static lg:mx-0 lg:rounded-none lg:border-0 lg:bg-transparent lg:p-0 lg:backdrop-blur-none">
        {/* In the bar, beside the button it is about: on a phone the panel's foot is out of
            sight while the bar is not. */}
        <p aria-live="polite" className="w-full text-sm text-slate-700 empty:hidden">
          {isSlowToSend
            ? 'Still waiting for the settlement service. This withdrawal is sent at most once under its operation id, so waiting, or retrying if it fails, cannot send it twice.'
            : ''}
        </p>
        {onBack ? (
          <Button
            onClick={onBack}
            disabled={isSending}
            variant={onSend ? 'secondary' : 'primary'}
            className="flex-1 sm:flex-none"
          >
            Back to edit
          </Button>
        ) : null}
        {onSend ? (
          <Button
            variant="primary"
            onClick={onSend}
            disabled={isSending}
            className="flex-1 sm:flex-none"
          >
            {isSending ? 'Sending…' : sendLabel}
          </Button>
        ) : null}
      </div>
    </section>
  );
}
