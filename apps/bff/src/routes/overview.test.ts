import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConsoleConfigSchema,
  EventHistoryPageSchema,
  OverviewSchema,
  WalletLabelListSchema,
} from '@settlement/protocol';
import {
  fundedWallet,
  startBff,
  startSandbox,
  waitFor,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';

let sandbox: SandboxProcess;
let bff: BffInstance;
let admin: Browser;
let treasury: Browser;
let support: Browser;
let walletId = '';

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff({ sandbox });
  admin = await bff.login('admin');
  treasury = await bff.login('treasury');
  support = await bff.login('support');
  ({ walletId } = await fundedWallet(bff, admin, treasury, '500000000'));
}, 120_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

describe('GET /bff/overview', () => {
  it('answers a GET that carries a body (its request closes once read) with the overview', async () => {
    const response = await bff.call('GET', '/bff/overview', { browser: support, rawBody: '{}' });
    expect(response.status, response.text).toBe(200);
  });

  it('sums every wallet per asset and chain and lists the pending withdrawals', async () => {
    // A second funded wallet on the same chain: the totals add both, exactly.
    const second = await fundedWallet(bff, admin, treasury, '250000001');
    const response = await bff.call('GET', '/bff/overview', { browser: support });
    expect(response.status).toBe(200);
    const overview = OverviewSchema.parse(response.json);
    const trx = overview.totals.find((t) => t.asset === 'TRX' && t.chain === 'tron:nile');
    expect(trx).toMatchObject({ postedAtomic: '750000001', availableAtomic: '750000001' });
    expect(trx?.reservedAtomic).toBe('0');
    expect(overview.wallets.map((w) => w.id)).toEqual(
      expect.arrayContaining([walletId, second.walletId]),
    );
    expect(overview.isPartial).toBe(false);
    expect(overview.unreadWallets).toBe(0);
    expect(overview.inFlight).toMatchObject({ count: 0, oldestCreatedAt: null });
  }, 60_000);

  it('refuses without a session, in the error envelope', async () => {
    const response = await bff.call('GET', '/bff/overview');
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('wallet labels', () => {
  it('lets treasury set and clear a label, shows it in the overview and audits each change', async () => {
    const put = await bff.call('PUT', `/bff/wallet-labels/${walletId}`, {
      browser: treasury,
      body: { label: '  Hot wallet  ' },
    });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({
      walletId,
      label: { label: 'Hot wallet', updatedBy: 'treasury' },
    });
    const list = WalletLabelListSchema.parse(
      (await bff.call('GET', '/bff/wallet-labels', { browser: support })).json,
    );
    expect(list.items).toContainEqual(expect.objectContaining({ walletId, label: 'Hot wallet' }));
    const overview = OverviewSchema.parse(
      (await bff.call('GET', '/bff/overview', { browser: support })).json,
    );
    expect(overview.wallets.find((w) => w.id === walletId)?.label).toBe('Hot wallet');

    const cleared = await bff.call('PUT', `/bff/wallet-labels/${walletId}`, {
      browser: treasury,
      body: { label: null },
    });
    expect(cleared.json).toEqual({ walletId, label: null });
    await bff.bff.services.logs.flush();
    const audit = bff.db
      .prepare(
        "SELECT outcome, detail FROM audit_log WHERE action = 'wallet-label.update' ORDER BY id",
      )
      .all();
    expect(audit).toEqual([
      { outcome: 'set', detail: JSON.stringify({ from: null, to: 'Hot wallet' }) },
      { outcome: 'removed', detail: JSON.stringify({ from: 'Hot wallet', to: null }) },
    ]);
  });

  it('refuses support, an unknown wallet, a line break and a label over 64 characters', async () => {
    const bySupport = await bff.call('PUT', `/bff/wallet-labels/${walletId}`, {
      browser: support,
      body: { label: 'x' },
    });
    expect(bySupport.status).toBe(403);
    const unknown = await bff.call('PUT', '/bff/wallet-labels/wal_nope', {
      browser: treasury,
      body: { label: 'x' },
    });
    expect(unknown.status).toBe(404);
    for (const label of ['a\nb', 'x'.repeat(65), '']) {
      const bad = await bff.call('PUT', `/bff/wallet-labels/${walletId}`, {
        browser: treasury,
        body: { label },
      });
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });
});

describe('GET /bff/events/history', () => {
  it('pages the stored events newest first and filters by family', async () => {
    await waitFor(async () => (await bff.bff.events.after(0, 10)).length >= 3);
    // The relay may store more events while the test reads: positions are taken in what was
    // stored by the end, and the page's first event is at least as new as the newest before it.
    const storedBefore = await bff.bff.events.after(0, 10_000);
    const first = EventHistoryPageSchema.parse(
      (await bff.call('GET', '/bff/events/history?limit=2', { browser: support })).json,
    );
    expect(first.items).toHaveLength(2);
    expect(first.nextBefore).not.toBeNull();
    const [a, b] = first.items;
    expect(a && b && a.id !== b.id).toBe(true);
    const second = EventHistoryPageSchema.parse(
      (
        await bff.call('GET', `/bff/events/history?limit=2&before=${String(first.nextBefore)}`, {
          browser: support,
        })
      ).json,
    );
    const stored = await bff.bff.events.after(0, 10_000);
    const newest = stored.findIndex((event) => event.id === first.items[0]?.id);
    expect(newest).toBeGreaterThanOrEqual(storedBefore.length - 1);
    expect(first.items[1]?.id).toBe(stored[newest - 1]?.id);
    expect(second.items.map((event) => event.id)).toEqual(
      [stored[newest - 2]?.id, stored[newest - 3]?.id].filter((id) => id !== undefined),
    );

    const accounts = EventHistoryPageSchema.parse(
      (await bff.call('GET', '/bff/events/history?family=account', { browser: support })).json,
    );
    expect(accounts.items.length).toBeGreaterThan(0);
    expect(accounts.items.every((e) => e.type.startsWith('account.'))).toBe(true);
  });

  it('refuses a bad limit in the error envelope', async () => {
    const response = await bff.call('GET', '/bff/events/history?limit=0', { browser: support });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'INVALID_QUERY_PARAMETER' });
  });
});

describe('GET /bff/config', () => {
  it('gives Tronscan for mainnet and Nile Tronscan for Nile by default', async () => {
    const config = ConsoleConfigSchema.parse(
      (await bff.call('GET', '/bff/config', { browser: support })).json,
    );
    expect(config.explorers).toEqual([
      { chain: 'tron:mainnet', baseUrl: 'https://tronscan.org' },
      { chain: 'tron:nile', baseUrl: 'https://nile.tronscan.org' },
    ]);
  });
});
