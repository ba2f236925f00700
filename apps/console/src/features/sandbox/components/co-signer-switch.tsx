import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { useSetCoSignerMutation } from '../api/set-co-signer';

/**
 * Sandbox tool: one switch for the simulated Co-Signer, offering only the change that makes
 * sense now. Stopping it halts all signing, so it asks first; starting it does not.
 */
export function CoSignerSwitch({
  isOnline,
  isKnown,
  onSwitched,
}: {
  isOnline: boolean;
  /** False while the MPC status loads: the switch cannot tell which way it points. */
  isKnown: boolean;
  /** Refetches what shows the Co-Signer's state; the switch stays busy until it settles. */
  onSwitched: () => Promise<unknown>;
}) {
  const [isConfirming, setIsConfirming] = useState(false);
  const coSigner = useSetCoSignerMutation(onSwitched);

  const handleStop = () => {
    coSigner.mutate(false, {
      // Closed once settled, so focus goes back to a switch that is enabled again.
      onSettled: () => {
        setIsConfirming(false);
      },
    });
  };

  return (
    <>
      <Button
        variant={isOnline ? 'secondary' : 'primary'}
        disabled={coSigner.isPending || !isKnown}
        onClick={() => {
          if (isOnline) setIsConfirming(true);
          else coSigner.mutate(true);
        }}
      >
        {isOnline ? 'Stop simulated Co-Signer' : 'Start simulated Co-Signer'}
      </Button>
      {coSigner.error ? (
        <ErrorPanel error={coSigner.error} title="The simulator did not switch" />
      ) : null}
      <Dialog
        isOpen={isConfirming}
        onOpenChange={(isOpen) => {
          if (!coSigner.isPending) setIsConfirming(isOpen);
        }}
        title="Stop the simulated Co-Signer?"
        description="While it is stopped the organization cannot sign: new wallets and withdrawals are refused, and pending withdrawals wait until it is started again."
      >
        <div className="flex justify-end gap-2">
          <Button
            disabled={coSigner.isPending}
            onClick={() => {
              setIsConfirming(false);
            }}
          >
            Keep it running
          </Button>
          <Button variant="danger" disabled={coSigner.isPending} onClick={handleStop}>
            {coSigner.isPending ? 'Stopping…' : 'Stop Co-Signer'}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
