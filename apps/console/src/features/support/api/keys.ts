export const supportKeys = {
  all: ['support'] as const,
  searches: () => [...supportKeys.all, 'search'] as const,
  search: (q: string) => [...supportKeys.searches(), q] as const,
};
