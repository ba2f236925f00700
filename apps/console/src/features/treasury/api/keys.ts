export const treasuryKeys = {
  all: ['treasury'] as const,
  overview: () => [...treasuryKeys.all, 'overview'] as const,
  config: () => [...treasuryKeys.all, 'config'] as const,
};
