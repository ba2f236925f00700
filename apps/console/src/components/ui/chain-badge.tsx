import { Badge } from './badge';

/** Chains whose assets have no value: every wallet, address and transaction on them says so. */
const TESTNETS: Record<string, string> = { 'tron:nile': 'Nile testnet' };

export function isTestnet(chain: string): boolean {
  return chain in TESTNETS;
}

/** A chain's name as plain text (a select option cannot hold a badge): "tron:nile (Nile testnet)". */
export function chainLabel(chain: string): string {
  const label = TESTNETS[chain];
  return label ? `${chain} (${label})` : chain;
}

/** A "testnet" badge beside anything that lives on a test chain; nothing for a main network. */
export function ChainBadge({ chain }: { chain: string }) {
  const label = TESTNETS[chain];
  if (!label) return null;
  return <Badge tone="info">{label}</Badge>;
}

/** A chain in a details list: its id as the service writes it, then the testnet badge if any. */
export function ChainWithBadge({ chain }: { chain: string }) {
  return (
    <span className="flex flex-wrap items-center gap-2">
      <span className="font-mono text-xs">{chain}</span>
      <ChainBadge chain={chain} />
    </span>
  );
}
