import type { Wallet } from '@settlement/protocol';
import { Link } from 'react-router';
import { SelectField } from '../../../components/ui/field';
import { partialPickerHint } from '../../../lib/paging';

/** The wallet a withdrawal is sent from, with why none can be chosen or why it cannot send. */
export function SourceWalletField({
  wallets,
  isWalletListPartial,
  availableByWallet,
  walletId,
  onWalletChange,
  readiness,
  isSubmitted,
}: {
  wallets: Wallet[];
  /** More ACTIVE wallets exist than the picker lists. */
  isWalletListPartial: boolean;
  /** Available balances per wallet as display text, for the picker. */
  availableByWallet: Record<string, string>;
  walletId: string;
  onWalletChange: (walletId: string) => void;
  readiness: { isReady: boolean; reason: string | null } | null;
  isSubmitted: boolean;
}) {
  const wallet = wallets.find((w) => w.id === walletId) ?? null;
  const chain = wallet?.chain ?? '';
  return (
    <>
      <SelectField
        label="From wallet"
        hint={isWalletListPartial ? partialPickerHint(wallets.length, 'ACTIVE wallets') : undefined}
        value={walletId}
        onChange={(event) => {
          onWalletChange(event.target.value);
        }}
        options={[
          { value: '', label: wallets.length ? 'Choose an ACTIVE wallet' : 'No ACTIVE wallet' },
          ...wallets.map((w) => ({
            value: w.id,
            label: `${w.accountName} — ${w.address} (${w.chain})${availableByWallet[w.id] ? ` — ${availableByWallet[w.id] ?? ''} available` : ''}`,
          })),
        ]}
        error={isSubmitted && !wallet ? 'Choose the wallet to send from.' : null}
      />
      {wallets.length === 0 ? (
        <p role="note" className="text-sm text-slate-700">
          There is no ACTIVE wallet to send from yet.{' '}
          <Link to="/wallets" className="font-medium text-indigo-700 underline">
            Create a wallet
          </Link>{' '}
          and fund it with a deposit first.
        </p>
      ) : null}
      {wallet && readiness && !readiness.isReady ? (
        <div
          role="note"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
        >
          <p className="font-semibold">Withdrawals are not possible on {chain} right now.</p>
          <p className="mt-1">{readiness.reason}</p>
          <Link to="/setup" className="mt-1 inline-block font-medium underline">
            Open Setup
          </Link>
        </div>
      ) : null}
    </>
  );
}
