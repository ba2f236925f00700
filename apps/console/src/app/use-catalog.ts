import { decimalsOf } from '@settlement/protocol';
import type { Asset } from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { assetCatalogQuery } from '../features/assets/api/asset-catalog';

const NO_ASSETS: Asset[] = [];

/** The asset catalog and a decimals lookup (null while loading or for unknown assets). */
export function useCatalog() {
  const query = useQuery(assetCatalogQuery());
  const assets = query.data ?? NO_ASSETS;
  const decimalsFor = useCallback((asset: string) => decimalsOf(assets, asset), [assets]);
  const enabledChains = [
    ...new Set(assets.flatMap((a) => a.chains.filter((c) => c.enabled).map((c) => c.chain))),
  ];
  return { assets, decimalsFor, enabledChains, query };
}
