import { WALLET_LABEL_MAX, WalletLabelTextSchema } from '@settlement/protocol';
import { useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { errorSummary } from '../../../components/ui/error-panel';
import { TextField } from '../../../components/ui/field';
import { showToast } from '../../../lib/toasts';
import { useSaveWalletLabelMutation } from '../api/save-wallet-label';

/**
 * Edits a wallet's label (treasury and admin). Empty saves nothing; "Use default" removes the
 * label so the default name (account, chain, last 4 characters) shows again.
 */
export function WalletLabelEditor({
  walletId,
  label,
  defaultLabel,
}: {
  walletId: string;
  label: string | null;
  defaultLabel: string;
}) {
  const [draft, setDraft] = useState(label ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = useSaveWalletLabelMutation(walletId);

  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    const parsed = WalletLabelTextSchema.safeParse(draft);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the label.');
      return;
    }
    setError(null);
    save.mutate(parsed.data, {
      onSuccess: () => {
        showToast('success', 'Label saved.');
      },
      onError: (e) => {
        setError(errorSummary(e).message ?? errorSummary(e).title);
      },
    });
  };

  return (
    <form onSubmit={handleSubmit} className="space-y-3 p-4" aria-label="Wallet label">
      <TextField
        label="Label"
        value={draft}
        maxLength={WALLET_LABEL_MAX}
        placeholder={defaultLabel}
        hint={`Shown wherever this wallet appears. Without one: ${defaultLabel}.`}
        error={error}
        onChange={(event) => {
          setDraft(event.target.value);
        }}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          Save label
        </Button>
        {label !== null ? (
          <Button
            disabled={save.isPending}
            onClick={() => {
              save.mutate(null, {
                onSuccess: () => {
                  setDraft('');
                  showToast('success', 'Label removed; the default name shows again.');
                },
              });
            }}
          >
            Use default
          </Button>
        ) : null}
      </div>
    </form>
  );
}
