import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from './db';
import { SAVED_VIEWS_PER_OWNER_MAX, createSavedViewStore } from './saved-views';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bff-saved-views-'));
  db = openDb(join(dir, 'bff.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function store() {
  let n = 0;
  return createSavedViewStore(db, () => `sv_${String((n += 1))}`);
}

const confirmed = {
  name: 'Confirmed TRX',
  subject: 'transactions',
  filters: { status: 'CONFIRMED', asset: 'TRX' },
  visibility: 'personal',
} as const;

describe('saved view store', () => {
  it('shows an operator their own views and the shared ones, never another operator’s personal one', () => {
    const views = store();
    views.save({ ...confirmed, owner: 'alice' }, 1_000);
    views.save({ ...confirmed, name: 'Team', visibility: 'organization', owner: 'bob' }, 2_000);
    views.save({ ...confirmed, name: 'Bob only', owner: 'bob' }, 3_000);
    views.save({ ...confirmed, name: 'Wallets', subject: 'wallets', owner: 'alice' }, 4_000);

    expect(views.listVisible('alice', 'transactions').map((v) => v.name)).toEqual([
      'Confirmed TRX',
      'Team',
    ]);
    expect(views.listVisible('alice', null).map((v) => v.name)).toContain('Wallets');
    expect(views.getVisible('sv_3', 'alice')).toBeNull();
    expect(views.getVisible('sv_2', 'alice')).toMatchObject({ owner: 'bob', name: 'Team' });
  });

  it('replaces the filters of a view saved again under the same name', () => {
    const views = store();
    const first = views.save({ ...confirmed, owner: 'alice' }, 1_000);
    const again = views.save(
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
    expect(views.listVisible('bob', 'transactions')).toEqual([again?.view]);
  });

  it('refuses a new view past the per-owner limit but still updates an existing one', () => {
    const views = store();
    for (let i = 0; i < SAVED_VIEWS_PER_OWNER_MAX; i += 1)
      views.save({ ...confirmed, name: `View ${String(i)}`, owner: 'alice' }, i);
    expect(views.save({ ...confirmed, name: 'One more', owner: 'alice' }, 9)).toBeNull();
    expect(views.save({ ...confirmed, name: 'View 0', owner: 'alice' }, 9)?.created).toBe(false);
    expect(views.save({ ...confirmed, owner: 'bob' }, 9)?.created).toBe(true);
  });
});
