export const securityKeys = {
  all: ['security'] as const,
  passkeys: () => [...securityKeys.all, 'passkeys'] as const,
  sessions: (username: string | null) => [...securityKeys.all, 'sessions', username] as const,
  operators: () => [...securityKeys.all, 'operators'] as const,
};
