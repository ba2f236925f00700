import { CHAINS, type Balance, type Chain } from '@settlement/protocol';
import type { Db } from '../store/db';
import { assetCatalog } from './assets';
import { walletsAssetBalances } from './ledger';

/**
 * Balance projections of the REST API, read from the ledger: one item per asset enabled on the
 * chain for the org (zeros included), atomic strings. posted = available + reserved.
 */

type WalletChainRow = { id: string; orgId: string; chain: string };

function enabledAssets(db: Db, orgId: string, chain: string): string[] {
  return assetCatalog(db, orgId)
    .filter((asset) => asset.chains.some((c) => c.chain === chain && c.enabled))
    .map((asset) => asset.asset);
}

function isChain(value: string): value is Chain {
  return (CHAINS as readonly string[]).includes(value);
}

function project(db: Db, wallets: readonly WalletChainRow[]): Balance[] {
  const out: Balance[] = [];
  const first = wallets[0];
  if (first === undefined) return out;
  const chains = [...new Set(wallets.map((w) => w.chain))].filter(isChain).sort();
  for (const chain of chains) {
    const ids = wallets.filter((w) => w.chain === chain).map((w) => w.id);
    const sums = walletsAssetBalances(db, ids);
    for (const asset of enabledAssets(db, first.orgId, chain)) {
      const balance = sums.get(asset) ?? { posted: 0n, reserved: 0n, available: 0n };
      out.push({
        asset,
        chain,
        postedBalance: balance.posted.toString(),
        availableBalance: balance.available.toString(),
        reservedBalance: balance.reserved.toString(),
      });
    }
  }
  return out;
}

/** Balances of one wallet (empty when the wallet does not exist). */
export function walletBalances(db: Db, walletId: string): Balance[] {
  const wallet = db
    .prepare<[string], WalletChainRow>(
      'SELECT id, org_id AS orgId, chain FROM wallets WHERE id = ?',
    )
    .get(walletId);
  return wallet ? project(db, [wallet]) : [];
}

/** Balances of a ledger account: its wallets summed per chain and asset. */
export function accountBalances(db: Db, accountId: string): Balance[] {
  const wallets = db
    .prepare<[string], WalletChainRow>(
      'SELECT id, org_id AS orgId, chain FROM wallets WHERE account_id = ?',
    )
    .all(accountId);
  return project(db, wallets);
}
