/** The API key scopes the interface names (Authentication > Scopes). */
export const API_SCOPES = [
  'wallets:create',
  'wallets:read',
  'accounts:read',
  'transactions:read',
  'withdrawals:create',
  'mpc:initialize',
  'mpc:read',
  'websockets:read',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** Sandbox-only scope of the simulated Co-Signer's key (DESIGN.md). */
export const CO_SIGNER_SCOPE = 'co-signer';
