import { CHAINS, type Asset, type Chain } from '@settlement/protocol';
import type { Db } from '../store/db';
import { prepared } from '../store/prepared';

type CatalogEntry = {
  asset: string;
  name: string;
  decimals: number;
  contracts: Record<Chain, string | null>;
};

/** The sandbox catalog (DESIGN.md): TRX native and USDT TRC-20, both 6 decimals, on both chains. */
const CATALOG: readonly CatalogEntry[] = [
  {
    asset: 'TRX',
    name: 'TRON',
    decimals: 6,
    contracts: { 'tron:mainnet': null, 'tron:nile': null },
  },
  {
    asset: 'USDT',
    name: 'Tether USD (TRC-20)',
    decimals: 6,
    contracts: {
      'tron:mainnet': 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      'tron:nile': 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
    },
  },
];

const disabledAssetChains = prepared<[string], { asset: string; chain: string }>(
  'SELECT asset, chain FROM org_asset_chains WHERE org_id = ? AND enabled = 0',
);

/** The org's catalog: every asset on every chain, enabled unless the org turned it off. */
export function assetCatalog(db: Db, orgId: string): Asset[] {
  const disabled = new Set(
    disabledAssetChains(db)
      .all(orgId)
      .map((row) => `${row.asset}|${row.chain}`),
  );
  return CATALOG.map((entry) => ({
    asset: entry.asset,
    name: entry.name,
    decimals: entry.decimals,
    chains: CHAINS.map((chain) => ({
      chain,
      enabled: !disabled.has(`${entry.asset}|${chain}`),
      contractAddress: entry.contracts[chain],
    })),
  }));
}

/** Sandbox extension: turns one asset on one chain on or off for an org. */
export function setAssetEnabled(
  db: Db,
  orgId: string,
  asset: string,
  chain: Chain,
  isEnabled: boolean,
): void {
  db.prepare(
    `INSERT INTO org_asset_chains (org_id, asset, chain, enabled) VALUES (?, ?, ?, ?)
     ON CONFLICT (org_id, asset, chain) DO UPDATE SET enabled = excluded.enabled`,
  ).run(orgId, asset, chain, isEnabled ? 1 : 0);
}

/** A chain is enabled for an org while at least one catalog asset is enabled on it. */
export function isChainEnabled(db: Db, orgId: string, chain: Chain): boolean {
  return assetCatalog(db, orgId).some((asset) =>
    asset.chains.some((c) => c.chain === chain && c.enabled),
  );
}

export function isKnownChain(chain: string): chain is Chain {
  return (CHAINS as readonly string[]).includes(chain);
}
