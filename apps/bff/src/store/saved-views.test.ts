import { describe, expect, it } from 'vitest';
import { storeEngines, type Engine } from '../test-support/engines';
import { SAVED_VIEWS_PER_OWNER_MAX, createSavedViewStore } from './saved-views';

async function store(engine: Engine) {
  let n = 0;
  return createSavedViewStore(await engine.open(), () => `sv_${String((n += 1))}`);
}

const confirmed = {
  name: 'Confirmed TRX',
  subject: 'transactions',
  filters: { status: 'CONFIRMED', asset: 'TRX' },
  visibility: 'personal',
} as const;

describe.each(storeEngines())('saved view store ($name)', (engine) => {
  it('shows an operator their own views and the shared ones, never another operator’s personal one', async () => {
    const views = await store(engine);
    await views.save({ ...confirmed, owner: 'alice' }, 1_000);
    await views.save(
      { ...confirmed, name: 'Team', visibility: 'organization', owner: 'bob' },
      2_000,
    );
    await views.save({ ...confirmed, name: 'Bob only', owner: 'bob' }, 3_000);
    await views.save({ ...confirmed, name: 'Wallets', subject: 'wallets', owner: 'alice' }, 4_000);

    expect((await views.listVisible('alice', 'transactions')).map((v) => v.name)).toEqual([
      'Confirmed TRX',
      'Team',
    ]);
    expect((await views.listVisible('alice', null)).map((v) => v.name)).toContain('Wallets');
    expect(await views.getVisible('sv_3', 'alice')).toBeNull();
    expect(await views.getVisible('sv_2', 'alice')).toMatchObject({ owner: 'bob', name: 'Team' });
  });

  it('replaces the filters of a view saved again under the same name', async () => {
    const views = await store(engine);
    const first = await views.save({ ...confirmed, owner: 'alice' }, 1_000);
    const again = await views.save(
      { ...confirmed, filters: { status: 'FAILED' }, visibility: 'organization', owner: 'alice' },
      5_000,
    );
    expect(first?.created).toBe(true);
    expect(again).toMatchObject({
      created: false,
      view: {
        id: first?.view.id,
        filters: { status: 'FAILED' },
        createdAt: 1_000,
        updatedAt: 5_000,
      },
    });
    expect(await views.listVisible('bob', 'transactions')).toEqual([again?.view]);
  });

  it('refuses a new view past the per-owner limit but still updates an existing one', async () => {
    const views = await store(engine);
    for (let i = 0; i < SAVED_VIEWS_PER_OWNER_MAX; i += 1)
      await views.save({ ...confirmed, name: `View ${String(i)}`, owner: 'alice' }, i);
    expect(await views.save({ ...confirmed, name: 'One more', owner: 'alice' }, 9)).toBeNull();
    expect((await views.save({ ...confirmed, name: 'View 0', owner: 'alice' }, 9))?.created).toBe(
      false,
    );
    expect((await views.save({ ...confirmed, owner: 'bob' }, 9))?.created).toBe(true);
  });
});
