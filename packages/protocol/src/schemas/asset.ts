import { z } from 'zod/mini';
import { ChainSchema } from './common';

export const AssetChainSchema = z.lazy(() =>
  z.looseObject({
    chain: ChainSchema,
    enabled: z.boolean(),
    contractAddress: z.nullable(z.string()),
  }),
);

export const AssetSchema = z.lazy(() =>
  z.looseObject({
    asset: z.string(),
    name: z.string(),
    decimals: z.int().check(z.gte(0), z.lte(30)),
    chains: z.array(AssetChainSchema),
  }),
);
export type Asset = z.infer<typeof AssetSchema>;

export const AssetCatalogSchema = z.lazy(() => z.looseObject({ items: z.array(AssetSchema) }));
export type AssetCatalog = z.infer<typeof AssetCatalogSchema>;

/** Decimals of an asset from the catalog; null when the catalog does not list it. */
export function decimalsOf(catalog: readonly Asset[], asset: string): number | null {
  return catalog.find((entry) => entry.asset === asset)?.decimals ?? null;
}

export function isAssetEnabledOn(catalog: readonly Asset[], asset: string, chain: string): boolean {
  return (
    catalog
      .find((entry) => entry.asset === asset)
      ?.chains.some((c) => c.chain === chain && c.enabled) ?? false
  );
}
