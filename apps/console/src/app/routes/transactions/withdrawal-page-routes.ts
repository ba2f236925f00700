import { AssetCatalogSchema, BalanceListSchema, MpcStatusSchema } from '@settlement/protocol';
import type { RecordedRequest, Reply, TestServer } from '../../../test/test-server';

/** wal_1, the wallet every withdrawal-page test sends from (its balances: routeWithdrawalBasics). */
export function walletOne(now: string) {
  return {
    id: 'wal_1',
    chain: 'tron:nile',
    accountId: 'acc_1',
    accountName: 'Treasury',
    address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
    status: 'ACTIVE',
    createdAt: now,
    updatedAt: now,
  };
}

/** The wallet list answers `wallet` as the one ACTIVE wallet, and no wallet to other filters. */
export function routeOneActiveWallet(server: TestServer, wallet: ReturnType<typeof walletOne>) {
  server.route('GET', '/bff/api/v1/wallets', (request) =>
    request.path.includes('status=ACTIVE')
      ? { body: { items: [wallet], nextCursor: null } }
      : { body: { items: [], nextCursor: null } },
  );
}

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

/**
 * One page of `wallets` as the interface pages them: `limit` items from the position the cursor
 * names. A page after the first answers `laterPageError` instead, when one is given.
 */
export function walletPage(
  request: RecordedRequest,
  wallets: readonly unknown[],
  laterPageError: Reply | null = null,
): Reply {
  const query = new URL(request.path, 'http://test').searchParams;
  const from = Number(query.get('cursor') ?? '0');
  if (from > 0 && laterPageError) return laterPageError;
  const to = from + Number(query.get('limit'));
  const nextCursor = to < wallets.length ? String(to) : null;
  return { body: { items: wallets.slice(from, to), nextCursor } };
}
