import { AssetCatalogSchema, BalanceListSchema, MpcStatusSchema } from '@settlement/protocol';
import type { TestServer } from '../../../test/test-server';

/**
 * What every withdrawal-page test stands on: wallet wal_1 holding 10 TRX on Nile, an ACTIVE key
 * with the Co-Signer online, and the TRX catalog entry. Bodies are parsed with the protocol's
 * schemas, so a fixture that drifts from the contract fails here, not deep in a page test.
 */
export function routeWithdrawalBasics(server: TestServer, now: string): void {
  const balances = BalanceListSchema.parse({
    items: [
      {
        asset: 'TRX',
        chain: 'tron:nile',
        postedBalance: '10000000',
        availableBalance: '10000000',
        reservedBalance: '0',
      },
    ],
  });
  const mpc = MpcStatusSchema.parse({
    orgId: 'org_test',
    keyId: 'key_1',
    keyStatus: 'ACTIVE',
    coSigner: { status: 'ONLINE', lastSeenAt: now },
    chains: [{ chain: 'tron:nile', ready: true, reason: null }],
  });
  const catalog = AssetCatalogSchema.parse({
    items: [
      {
        asset: 'TRX',
        name: 'Tron',
        decimals: 6,
        chains: [{ chain: 'tron:nile', enabled: true, contractAddress: null }],
      },
    ],
  });
  server.route('GET', '/bff/api/v1/wallets/wal_1/balances', () => ({ body: balances }));
  server.route('GET', '/bff/api/v1/mpc/status', () => ({ body: mpc }));
  server.route('GET', '/bff/api/v1/assets', () => ({ body: catalog }));
}
