import { AssetCatalogSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { assetKeys } from './keys';

function fetchAssetCatalog(signal?: AbortSignal) {
  return apiRequest('/bff/api/v1/assets', AssetCatalogSchema, { signal });
}

export const assetCatalogQuery = () =>
  queryOptions({
    queryKey: assetKeys.catalog(),
    queryFn: ({ signal }) => fetchAssetCatalog(signal),
    staleTime: 5 * 60_000,
    select: (catalog) => catalog.items,
  });
