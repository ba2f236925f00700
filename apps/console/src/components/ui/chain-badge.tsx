import { Badge } from './badge';

/** Chains whose assets have no value: every wallet, address and transaction on them says so. */
const TESTNETS: Record<string, string> = { 'tron:nile': 'Nile testnet' };

export function isTestnet(chain: string): boolean {
  return chain in TESTNETS;
}

/** A "testnet" badge beside anything that lives on a test chain; nothing for a main network. */
export function ChainBadge({ chain }: { chain: string }) {
  const label = TESTNETS[chain];
  if (!label) return null;
  return <Badge tone="info">{label}</Badge>;
}
