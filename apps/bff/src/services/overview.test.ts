import { describe, expect, it } from 'vitest';
import { SettlementApiError, type SettlementClient } from '@settlement/client';
import { HttpError } from '../errors';
import type { Services } from './services';
import { treasuryOverview } from './overview';
import type { WalletLabelStore } from '../store/wallet-labels';

const T0 = '2030-01-01T00:00:00.000Z';

function wallet(id: string, chain = 'tron:nile') {
  return {
    id,
    chain,
    accountId: 'acc_1',
    accountName: 'Ops',
    address: `TAddress${id}`,
    status: 'ACTIVE',
    createdAt: T0,
    updatedAt: T0,
  };
}

function tx(id: string, fields: Record<string, unknown>) {
  return {
    id,
    walletId: 'w1',
    account: { id: 'acc_1' },
    type: 'WITHDRAWAL',
    status: 'PENDING',
    chain: 'tron:nile',
    asset: 'USDT',
    amountAtomic: '1',
    onChainDetails: null,
    createdAt: T0,
    updatedAt: T0,
    ...fields,
  };
}

/** An upstream answering from a table of paths (404 otherwise); 503 for paths in `failing`. */
function servicesWith(answers: Record<string, unknown>, failing: string[] = []): Services {
  const client = {
    send: (_method: string, target: string) => {
      const path = target.split('?')[0] ?? target;
      const found = target in answers ? answers[target] : answers[path];
      const status = failing.includes(path) ? 503 : found === undefined ? 404 : 200;
      return Promise.resolve({
        status,
        headers: {},
        bodyBytes: new TextEncoder().encode(JSON.stringify(found ?? { code: 'X' })),
        attempts: 1,
        requestIdSent: 'r',
        requestId: null,
        correlationId: null,
      });
    },
  } as unknown as SettlementClient;
  return {
    upstream: { clientFor: () => ({ client, keyName: 'k' }) },
    logs: { request: () => undefined },
    logger: { debug: () => undefined, info: () => undefined },
    now: () => Date.parse('2030-01-01T01:00:00.000Z'),
  } as unknown as Services;
}

const labels = {
  list: () => [{ walletId: 'w2', label: 'Cold', updatedAt: 0, updatedBy: 'treasury' }],
} as unknown as WalletLabelStore;

const big = '123456789012345678901234567890'; // far past 2^53: Number would lose digits

describe('treasuryOverview', () => {
  it('sums balances per asset and chain with bigint, counting only wallets it could read', async () => {
    const services = servicesWith(
      {
        '/api/v1/wallets': {
          items: [wallet('w1'), wallet('w2'), wallet('w3', 'tron:mainnet')],
          nextCursor: null,
        },
        '/api/v1/transactions': { items: [], nextCursor: null },
        '/api/v1/wallets/w1/balances': {
          items: [
            {
              asset: 'USDT',
              chain: 'tron:nile',
              postedBalance: big,
              availableBalance: big,
              reservedBalance: '0',
            },
          ],
        },
        '/api/v1/wallets/w2/balances': {
          items: [
            {
              asset: 'USDT',
              chain: 'tron:nile',
              postedBalance: '10',
              availableBalance: '7',
              reservedBalance: '3',
            },
          ],
        },
      },
      ['/api/v1/wallets/w3/balances'],
    );
    const overview = await treasuryOverview(services, labels, { operator: 'support' });
    expect(overview.totals).toEqual([
      {
        asset: 'USDT',
        chain: 'tron:nile',
        postedAtomic: '123456789012345678901234567900',
        reservedAtomic: '3',
        availableAtomic: '123456789012345678901234567897',
        walletCount: 2,
      },
    ]);
    expect(overview.unreadWallets).toBe(1);
    expect(overview.wallets.map((w) => [w.id, w.label, w.balances === null])).toEqual([
      ['w1', null, false],
      ['w2', 'Cold', false],
      ['w3', null, true],
    ]);
  });

  it('counts outgoing PENDING withdrawals (not the credit leg of an internal one), oldest first', async () => {
    const services = servicesWith({
      '/api/v1/wallets': { items: [], nextCursor: null },
      '/api/v1/transactions': {
        items: [
          tx('new', { amountAtomic: big, createdAt: '2030-01-01T00:30:00.000Z' }),
          tx('old', { amountAtomic: '5', createdAt: '2030-01-01T00:10:00.000Z' }),
          tx('debit', {
            type: 'INTERNAL_TRANSFER',
            direction: 'DEBIT',
            asset: 'TRX',
            amountAtomic: '2',
          }),
          tx('credit', {
            type: 'INTERNAL_TRANSFER',
            direction: 'CREDIT',
            asset: 'TRX',
            amountAtomic: '2',
          }),
          tx('deposit', { type: 'DEPOSIT', amountAtomic: '9' }),
        ],
        nextCursor: null,
      },
    });
    const { inFlight } = await treasuryOverview(services, labels, { operator: 'support' });
    expect(inFlight.count).toBe(3);
    expect(inFlight.oldestCreatedAt).toBe(T0);
    expect(inFlight.oldest.map((t) => t.id)).toEqual(['debit', 'old', 'new']);
    expect(inFlight.totals).toEqual([
      { asset: 'TRX', chain: 'tron:nile', amountAtomic: '2', count: 1 },
      {
        asset: 'USDT',
        chain: 'tron:nile',
        amountAtomic: '123456789012345678901234567895',
        count: 2,
      },
    ]);
  });

  it('follows every wallet page and says it is partial past the cap', async () => {
    const services = servicesWith({
      '/api/v1/wallets?limit=200': { items: [wallet('a')], nextCursor: 'c1' },
      '/api/v1/wallets?limit=200&cursor=c1': { items: [wallet('b')], nextCursor: null },
      '/api/v1/transactions': { items: [], nextCursor: null },
      '/api/v1/wallets/a/balances': { items: [] },
      '/api/v1/wallets/b/balances': { items: [] },
    });
    const overview = await treasuryOverview(services, labels, { operator: 'support' });
    expect(overview.wallets.map((w) => w.id)).toEqual(['a', 'b']);
    expect(overview.isPartial).toBe(false);
  });

  it('fails at once when the upstream stops answering, not once per round of wallets', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `w${String(i)}`);
    const balanceReads: string[] = [];
    let aborted = 0;
    const client = {
      send: (_method: string, target: string, options: { signal?: AbortSignal }) => {
        const path = target.split('?')[0] ?? target;
        const answer = (body: unknown) =>
          Promise.resolve({
            status: 200,
            headers: {},
            bodyBytes: new TextEncoder().encode(JSON.stringify(body)),
            attempts: 1,
            requestIdSent: 'r',
            requestId: null,
            correlationId: null,
          });
        if (path === '/api/v1/wallets')
          return answer({ items: ids.map((id) => wallet(id)), nextCursor: null });
        if (path === '/api/v1/transactions') return answer({ items: [], nextCursor: null });
        balanceReads.push(path);
        // The first balance read runs out of attempts without an answer (a frozen upstream);
        // the others hang until the overview gives them up.
        if (balanceReads.length === 1)
          return Promise.reject(
            new SettlementApiError({
              code: 'UPSTREAM_UNAVAILABLE',
              status: 503,
              message: 'upstream unreachable: timeout',
              requestId: null,
              retryable: true,
            }),
          );
        return new Promise((_resolve, reject) => {
          options.signal?.addEventListener('abort', () => {
            aborted += 1;
            reject(new DOMException('aborted', 'AbortError'));
          });
        });
      },
    } as unknown as SettlementClient;
    const services = {
      upstream: { clientFor: () => ({ client, keyName: 'k' }) },
      logs: { request: () => undefined },
      logger: { debug: () => undefined, info: () => undefined },
      now: () => Date.parse('2030-01-01T01:00:00.000Z'),
    } as unknown as Services;

    const failure = await treasuryOverview(services, labels, { operator: 'support' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(HttpError);
    expect((failure as HttpError).code).toBe('UPSTREAM_UNAVAILABLE');
    expect((failure as HttpError).message).toBe(
      'The upstream could not be reached or did not answer in time.',
    );
    // The first round only (six at once): the five still waiting were given up, and no other
    // wallet was asked for.
    expect(balanceReads).toHaveLength(6);
    expect(aborted).toBe(5);
  });
});
