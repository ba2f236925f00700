export const mpcKeys = {
  all: ['mpc'] as const,
  status: () => [...mpcKeys.all, 'status'] as const,
  coSignerHealth: () => [...mpcKeys.all, 'co-signer-health'] as const,
};
