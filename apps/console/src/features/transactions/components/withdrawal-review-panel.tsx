import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { Amount } from '../../../components/ui/amount';
import { Button } from '../../../components/ui/button';
import { CopyableId } from '../../../components/ui/copy-button';
import { DetailList } from '../../../components/ui/page-header';
import type { WithdrawalReview } from './withdrawal-form';

/** The last look before money moves: atomic amount, fee, total and destination. */
export function WithdrawalReviewPanel({
  review,
  operationId,
  isSending,
  onBack,
  onSend,
  status,
  sendLabel = 'Send withdrawal',
}: {
  review: WithdrawalReview;
  operationId: string;
  isSending: boolean;
  onBack: (() => void) | null;
  onSend: () => void;
  status?: ReactNode;
  sendLabel?: string;
}) {
  const { request, wallet, decimals, fee, isToken, internalTarget } = review;
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Moving to the review step moves focus too, so keyboard and screen-reader users land on it.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  const amount = BigInt(request.amountAtomic);
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
    <section aria-labelledby="review-heading" className="p-5">
      <h2
        id="review-heading"
        ref={headingRef}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 focus:outline-none"
      >
        Review the withdrawal
      </h2>
      <p className="mt-1 text-sm text-slate-600">Nothing has been sent yet. Check every line.</p>
      <DetailList
        items={[
          {
            label: 'From',
            value: <span className="font-mono text-xs break-all">{wallet.address}</span>,
          },
          { label: 'Account', value: wallet.accountName },
          { label: 'Chain', value: <span className="font-mono text-xs">{wallet.chain}</span> },
          {
            label: 'To',
            value: (
              <span className="space-y-1">
                <span className="block font-mono text-xs break-all">{request.toAddress}</span>
                {internalTarget ? (
                  <span className="block text-sky-900">
                    Internal transfer to account {internalTarget.accountName}
                  </span>
                ) : (
                  <span className="block text-slate-600">External withdrawal</span>
                )}
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
          ...(request.clientReference
            ? [{ label: 'Client reference', value: request.clientReference }]
            : []),
          { label: 'Operation id', value: <CopyableId value={operationId} label="operation id" /> },
        ]}
      />
      {status}
      <div className="mt-4 flex justify-end gap-2">
        {onBack ? (
          <Button onClick={onBack} disabled={isSending}>
            Back to edit
          </Button>
        ) : null}
        <Button variant="primary" onClick={onSend} disabled={isSending}>
          {isSending ? 'Sending…' : sendLabel}
        </Button>
      </div>
    </section>
  );
}
