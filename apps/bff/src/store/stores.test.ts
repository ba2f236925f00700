import { describe, expect, it } from 'vitest';
import { ADDRESS_BOOK_LIST_MAX, type NormalizedEvent } from '@settlement/protocol';
import { createAddressBookStore } from '../governance/address-book-store';
import { ALLOW_ALL_POLICY } from '../governance/demo-policy';
import { createPolicyStore } from '../governance/policy-store';
import { createPasskeyStore } from '../security/passkey-store';
import { storeEngines } from '../test-support/engines';
import { insertAddressBookEntries } from '../test-support/bulk-rows';
import { explaining, expectReadInIndexOrder } from '../test-support/explaining';
import { createEventHistory } from './event-history';
import { createEventStore } from './events';
import { createOperatorStore, LastAdminError } from './operators';
import { createSessionStore } from './sessions';
import { createWalletLabelStore } from './wallet-labels';

/**
 * The stores the HTTP suites exercise on SQLite, here case by case on both engines: what each
 * engine gives back for the same calls must be the same.
 */

function event(id: string, type: string, data: Record<string, unknown>): NormalizedEvent {
  return {
    kind: 'business',
    id,
    type,
    version: 1,
    orgId: 'org',
    occurredAt: `2026-01-01T00:00:0${id.slice(-1)}.000Z`,
    correlationId: `corr-${id}`,
    sequence: null,
    envelope: 'mvp',
    data,
    raw: { id, data },
  };
}

describe.each(storeEngines())('stores ($name)', (engine) => {
  it('operators and sessions: a session resolves, lists, expires and ends with its operator', async () => {
    const sql = await engine.open();
    let at = 1_000_000;
    const operators = createOperatorStore(sql, () => at);
    const sessions = createSessionStore(sql, { idleMs: 60_000, absoluteMs: 3_600_000 }, () => at);
    const admin = await operators.add('root', 'admin', 'hash');
    const support = await operators.add('sam', 'support', 'hash', { mustChangePassword: true });
    expect(support).toMatchObject({ role: 'support', mustChangePassword: true, passkeys: 0 });

    const first = await sessions.create(support.id, { userAgent: 'ua', ip: '192.0.2.1' });
    const second = await sessions.create(support.id);
    expect(await sessions.resolve(first.sessionId)).toMatchObject({
      username: 'sam',
      role: 'support',
      stage: 'complete',
      needsStepUp: false,
    });
    expect((await sessions.listOf('sam')).map((s) => s.userAgent).sort()).toEqual(['', 'ua']);
    expect(await sessions.removeOthers(support.id, first.idHash)).toBe(1);
    expect(await sessions.resolve(second.sessionId)).toBeNull();

    at += 30_000;
    expect(await sessions.isAlive(first.idHash)).toBe(true);
    await operators.update('sam', { disabled: true });
    expect(await sessions.resolve(first.sessionId)).toBeNull();
    await expect(operators.update('root', { role: 'treasury' })).rejects.toBeInstanceOf(
      LastAdminError,
    );
    expect((await operators.findById(admin.id))?.role).toBe('admin');
    expect(await operators.enabledAdmins()).toBe(1);

    const user = await operators.webauthnUserId(admin.id);
    expect(await operators.webauthnUserId(admin.id)).toBe(user);
    const late = await sessions.create(admin.id, { stage: 'passkey' });
    expect(await sessions.resolve(late.sessionId)).toBeNull();
    expect(await sessions.resolveAny(late.sessionId)).toMatchObject({ stage: 'passkey' });
    at += 120_000;
    expect(await sessions.removeExpired()).toBeGreaterThan(0);
    expect(await sessions.resolveAny(late.sessionId)).toBeNull();
  });

  it('passkeys: bytes round-trip, a challenge is taken once and expires', async () => {
    const sql = await engine.open();
    let at = 5_000;
    const operator = await createOperatorStore(sql, () => at).add('pat', 'admin', 'hash');
    const session = await createSessionStore(
      sql,
      { idleMs: 1e9, absoluteMs: 1e9 },
      () => at,
    ).create(operator.id);
    const passkeys = createPasskeyStore(sql, () => at);
    const key = new Uint8Array([0, 1, 2, 254, 255]);
    const stored = await passkeys.add({
      operatorId: operator.id,
      credentialId: 'cred-1',
      publicKey: key,
      counter: 3,
      transports: ['usb'],
      name: 'Key',
      isBackedUp: false,
    });
    expect([...stored.publicKey]).toEqual([...key]);
    await passkeys.recordUse(stored.id, 4, true);
    expect(await passkeys.byCredentialId('cred-1')).toMatchObject({ counter: 4, isBackedUp: true });
    await passkeys.issueChallenge(session.idHash, 'step-up', 'c1');
    await passkeys.issueChallenge(session.idHash, 'step-up', 'c2');
    expect(await passkeys.takeChallenge(session.idHash, 'step-up')).toBe('c2');
    expect(await passkeys.takeChallenge(session.idHash, 'step-up')).toBeNull();
    await passkeys.issueChallenge(session.idHash, 'login', 'c3');
    at += 3 * 60_000;
    expect(await passkeys.takeChallenge(session.idHash, 'login')).toBeNull();
    expect(await passkeys.remove(stored.id, operator.id)).toBe(true);
    expect(await passkeys.ofOperator(operator.id)).toEqual([]);
  });

  it('policy versions count up; labels and the address book keep one live entry', async () => {
    const sql = await engine.open();
    const policies = createPolicyStore(sql, () => 7);
    expect(await policies.current()).toBeNull();
    const saved = await Promise.all([
      policies.save(ALLOW_ALL_POLICY, 'a'),
      policies.save(ALLOW_ALL_POLICY, 'b'),
    ]);
    expect(saved.map((p) => p.version).sort()).toEqual([1, 2]);
    expect((await policies.current())?.version).toBe(2);

    const labels = createWalletLabelStore(sql);
    expect(await labels.set({ walletId: 'w1', label: 'Ops', updatedAt: 1, updatedBy: 'a' })).toBe(
      true,
    );
    await labels.set({ walletId: 'w1', label: 'Payroll', updatedAt: 2, updatedBy: 'b' });
    expect(await labels.list()).toEqual([
      { walletId: 'w1', label: 'Payroll', updatedAt: 2, updatedBy: 'b' },
    ]);
    expect(await labels.remove('w1')).toBe(true);
    expect(await labels.get('w1')).toBeNull();

    const book = createAddressBookStore(sql, () => 9);
    const entry = { chain: 'tron:nile' as const, address: 'TAddr', label: 'Vendor' };
    const added = await book.add(entry, 'a');
    expect(added.isNew).toBe(true);
    expect((await book.add(entry, 'b')).isNew).toBe(false);
    expect(await book.approve(added.entry.id, 'c')).toBe(true);
    expect((await book.findLive('tron:nile', 'TAddr'))?.status).toBe('ACTIVE');
    expect(await book.remove(added.entry.id, 'c')).toBe(true);
    expect(await book.list()).toEqual([]);
    expect(await book.list(true)).toHaveLength(1);
    expect((await book.add(entry, 'a')).isNew).toBe(true);
  });

  it('the address book lists its newest entries up to the bound; the policy finds an older one', async () => {
    const sql = await engine.open();
    let clock = 0;
    const book = createAddressBookStore(sql, () => ++clock);
    for (let i = 0; i <= ADDRESS_BOOK_LIST_MAX; i += 1) {
      const added = await book.add(
        { chain: 'tron:nile', address: `TAddr${String(i)}`, label: `Vendor ${String(i)}` },
        'a',
      );
      await book.approve(added.entry.id, 'b');
    }
    const listed = await book.list();
    expect(listed).toHaveLength(ADDRESS_BOOK_LIST_MAX);
    expect(listed[0]?.address).toBe(`TAddr${String(ADDRESS_BOOK_LIST_MAX)}`);
    expect(listed.some((entry) => entry.address === 'TAddr0')).toBe(false);
    expect((await book.findLive('tron:nile', 'TAddr0'))?.status).toBe('ACTIVE');
  });

  it('the address book reads its newest entries in order, without sorting every entry', async () => {
    const sql = await engine.open();
    await insertAddressBookEntries(sql, 20_000);
    if (engine.name === 'postgres') await sql.run('ANALYZE');
    const plans: string[] = [];
    const book = createAddressBookStore(
      explaining(sql, (text) => text.includes('FROM address_book WHERE status'), plans),
    );
    const listed = await book.list();
    expect(listed.slice(0, 2).map((entry) => entry.id)).toEqual(['ab-20000', 'ab-19999']);
    expect(plans).toHaveLength(1);
    const [plan = ''] = plans;
    expectReadInIndexOrder(plan, sql.dialect, 'address_book', 'address_book_newest');
  });

  it('events: searched by payload fields and paged by family, type and text', async () => {
    const sql = await engine.open();
    const events = createEventStore(sql, () => 1);
    await events.addMany([
      event('e1', 'account.created', { accountId: 'acc-1' }),
      event('e2', 'transaction_status.changed', { toAddress: 'TDest', transactionId: 'tx-1' }),
      event('e3', 'transaction.created', { sourceTransactionId: 'tx-9', note: 'Invoice 42' }),
    ]);
    expect((await events.search('TDest')).map((e) => e.id)).toEqual(['e2']);
    expect((await events.search('tx-9')).map((e) => e.id)).toEqual(['e3']);
    expect((await events.forTransactions(['tx-1', 'tx-2'])).map((e) => e.id)).toEqual(['e2']);

    const history = createEventHistory(sql);
    const all = await history.page({ before: null, limit: 2, filter: {} });
    expect(all.items.map((e) => e.id)).toEqual(['e3', 'e2']);
    const rest = await history.page({ before: all.nextBefore, limit: 2, filter: {} });
    expect(rest).toMatchObject({ items: [{ id: 'e1' }], nextBefore: null });
    // `_` in a family name is literal, not a LIKE wildcard.
    const family = await history.page({
      before: null,
      limit: 10,
      filter: { family: 'transaction_status' },
    });
    expect(family.items.map((e) => e.id)).toEqual(['e2']);
    const text = await history.page({ before: null, limit: 10, filter: { q: 'invoice 42' } });
    expect(text.items.map((e) => e.id)).toEqual(['e3']);
    const typed = await history.page({
      before: null,
      limit: 10,
      filter: { type: 'account.created' },
    });
    expect(typed.items.map((e) => e.id)).toEqual(['e1']);
    expect(await events.prune(2)).toBe(3);
  });

  it('events: a filtered page reads one window of positions, and the pages that follow find every match in order', async () => {
    const sql = await engine.open();
    const events = createEventStore(sql, () => 1);
    const needles = new Set([3, 4, 17, 25]);
    await events.addMany(
      Array.from({ length: 25 }, (_, i) =>
        event(`e${i + 1}`, 'transaction.updated', {
          note: needles.has(i + 1) ? `needle ${i + 1}` : 'hay',
        }),
      ),
    );
    const history = createEventHistory(sql, { window: 10 });
    const pages: { ids: string[]; isWindowEnd: boolean }[] = [];
    let before: number | null = null;
    do {
      const page = await history.page({ before, limit: 2, filter: { q: 'NEEDLE' } });
      pages.push({ ids: page.items.map((e) => e.id), isWindowEnd: page.isWindowEnd });
      before = page.nextBefore;
    } while (before !== null && pages.length < 10);
    // Ten positions a page: the newest window holds two matches, the next none, the oldest
    // two; a page never reads past its window to fill itself.
    expect(pages).toEqual([
      { ids: ['e25', 'e17'], isWindowEnd: true },
      { ids: [], isWindowEnd: true },
      { ids: ['e4', 'e3'], isWindowEnd: true },
    ]);

    // `limit` matches inside a window: the next page continues below the last one shown.
    const first = await history.page({ before: null, limit: 1, filter: { q: 'needle' } });
    expect(first).toMatchObject({ items: [{ id: 'e25' }], isWindowEnd: false });
    const second = await history.page({
      before: first.nextBefore,
      limit: 1,
      filter: { q: 'needle' },
    });
    expect(second.items.map((e) => e.id)).toEqual(['e17']);

    // Unfiltered pages read by position alone, with no window.
    const newest = await history.page({ before: null, limit: 20, filter: {} });
    expect(newest).toMatchObject({ isWindowEnd: false });
    expect(newest.items).toHaveLength(20);

    // Nothing stored: an empty last page.
    expect(await events.prune(2)).toBe(25);
    expect(await history.page({ before: null, limit: 2, filter: { q: 'needle' } })).toEqual({
      items: [],
      nextBefore: null,
      isWindowEnd: false,
    });
  });
});
