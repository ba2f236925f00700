import type { Transaction } from '@settlement/protocol';
import { Link } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { StatusBadge } from '../../../components/ui/badge';
import { ChainWithBadge } from '../../../components/ui/chain-badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { WalletName } from '../../../components/ui/wallet-name';
import { ExtraFields } from '../../../components/ui/extra-fields';
import { DetailList } from '../../../components/ui/page-header';
import { Time } from '../../../components/ui/time';
import { typeLabel } from './transactions-table';

const KNOWN = [
  'id',
  'walletId',
  'account',
  'type',
  'status',
  'chain',
  'asset',
  'amountAtomic',
  'displayAmount',
  'signedAmountAtomic',
  'direction',
  'balanceEffects',
  'onChainDetails',
  'networkFeeSummary',
  'clientReference',
  'billingReference',
  'toAddress',
  'fromAddress',
  'transactionGroupId',
  'counterpartTransactionId',
  'transferKind',
  'failureCode',
  'failureMessage',
  'correlationId',
  'createdAt',
  'updatedAt',
];

/** Every field of a transaction: the interface's ones labelled, unknown ones shown as they came. */
export function TransactionSummary({
  transaction: tx,
  decimalsFor,
}: {
  transaction: Transaction;
  decimalsFor: (asset: string) => number | null;
}) {
  return (
    <>
      <DetailList
        items={[
          { label: 'Status', value: <StatusBadge status={tx.status} /> },
          {
            label: 'Amount',
            value: (
              <Amount
                atomic={tx.amountAtomic}
                decimals={decimalsFor(tx.asset)}
                asset={tx.asset}
                className="text-base font-semibold"
              />
            ),
          },
          {
            label: 'Atomic amount',
            value: <span className="font-mono text-xs tabular-nums">{tx.amountAtomic}</span>,
          },
          { label: 'Type', value: <span className="capitalize">{typeLabel(tx)}</span> },
          ...(tx.direction ? [{ label: 'Direction', value: tx.direction }] : []),
          ...(tx.transferKind
            ? [
                {
                  label: 'Transfer kind',
                  value: tx.transferKind.replaceAll('_', ' ').toLowerCase(),
                },
              ]
            : []),
          {
            label: 'Chain',
            value: <ChainWithBadge chain={tx.chain} />,
          },
          {
            label: 'Account',
            value: (
              <Link
                to={`/accounts/${encodeURIComponent(tx.account.id)}`}
                className="text-indigo-700 hover:underline"
              >
                {tx.account.name ?? tx.account.id}
              </Link>
            ),
          },
          {
            label: 'Wallet',
            value: <WalletName walletId={tx.walletId} />,
          },
          ...(tx.fromAddress
            ? [
                {
                  label: 'From',
                  value: <CopyableId value={tx.fromAddress} label="from address" />,
                },
              ]
            : []),
          ...(tx.toAddress
            ? [
                {
                  label: 'To',
                  value: <CopyableId value={tx.toAddress} label="to address" />,
                },
              ]
            : []),
          ...(tx.clientReference
            ? [
                {
                  label: 'Client reference',
                  value: <CopyableId value={tx.clientReference} label="client reference" />,
                },
              ]
            : []),
          ...(tx.billingReference
            ? [
                {
                  label: 'Billing reference',
                  value: <CopyableId value={tx.billingReference} label="billing reference" />,
                },
              ]
            : []),
          ...(tx.counterpartTransactionId
            ? [
                {
                  label: 'Other leg',
                  value: (
                    <Link
                      to={`/transactions/${encodeURIComponent(tx.counterpartTransactionId)}`}
                      className="font-mono text-xs text-indigo-700 hover:underline"
                    >
                      {tx.counterpartTransactionId}
                    </Link>
                  ),
                },
              ]
            : []),
          ...(tx.failureCode || tx.failureMessage
            ? [
                {
                  label: 'Failure',
                  value: (
                    <span className="text-red-800">
                      <code className="font-mono text-xs">{tx.failureCode}</code>{' '}
                      {tx.failureMessage}
                    </span>
                  ),
                },
              ]
            : []),
          { label: 'Created', value: <Time value={tx.createdAt} /> },
          { label: 'Updated', value: <Time value={tx.updatedAt} /> },
        ]}
      />
      <ExtraFields object={tx} known={KNOWN} />
    </>
  );
}
