import type { Wallet } from '@settlement/protocol';
import { QRCodeSVG } from 'qrcode.react';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { CopyButton } from '../../../components/ui/copy-button';
import { ExplorerLink } from '../../../components/ui/explorer-link';

/** The deposit address, large, with copy and a QR code. */
export function WalletAddressCard({ wallet }: { wallet: Wallet }) {
  return (
    <div className="flex flex-col gap-4 p-4 sm:flex-row sm:items-center">
      <div className="rounded-md border border-slate-200 bg-white p-3">
        <QRCodeSVG
          value={wallet.address}
          size={136}
          role="img"
          aria-label={`QR code of address ${wallet.address}`}
          title={`QR code of ${wallet.address}`}
        />
      </div>
      <div className="min-w-0 space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-xs font-medium tracking-wide text-slate-600 uppercase">
            Address on {wallet.chain}
          </p>
          <ChainBadge chain={wallet.chain} />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <code
            className="font-mono text-base break-all text-slate-900"
            data-testid="wallet-address"
          >
            {wallet.address}
          </code>
          <CopyButton value={wallet.address} label="address" />
          <ExplorerLink chain={wallet.chain} target="address" value={wallet.address} />
        </div>
        <p className="text-xs text-slate-600">
          Send only assets enabled on {wallet.chain} to this address.
        </p>
      </div>
    </div>
  );
}
