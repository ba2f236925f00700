export const assetKeys = {
  all: ['assets'] as const,
  catalog: () => [...assetKeys.all, 'catalog'] as const,
};
