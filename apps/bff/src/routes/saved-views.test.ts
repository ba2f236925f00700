import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditPageSchema, SavedViewListSchema, SavedViewSchema } from '@settlement/protocol';
import {
  startBff,
  startSandbox,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';

let sandbox: SandboxProcess;
let bff: BffInstance;
let admin: Browser;
let treasury: Browser;
let support: Browser;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff({ sandbox });
  admin = await bff.login('admin');
  treasury = await bff.login('treasury');
  support = await bff.login('support');
}, 120_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

const list = async (browser: Browser, subject = 'transactions') =>
  SavedViewListSchema.parse(
    (await bff.call('GET', `/bff/saved-views?subject=${subject}`, { browser })).json,
  ).items;

describe('/bff/saved-views', () => {
  it('keeps a personal view to its owner and shows a shared one to every operator', async () => {
    const personal = await bff.call('POST', '/bff/saved-views', {
      browser: treasury,
      body: {
        name: 'My failures',
        subject: 'transactions',
        filters: { status: 'FAILED' },
        visibility: 'personal',
      },
    });
    expect(personal.status).toBe(201);
    expect(SavedViewSchema.parse(personal.json)).toMatchObject({
      owner: 'treasury',
      filters: { status: 'FAILED' },
    });
    const shared = await bff.call('POST', '/bff/saved-views', {
      browser: treasury,
      body: {
        name: 'Team: TRX',
        subject: 'transactions',
        filters: { asset: 'TRX' },
        visibility: 'organization',
      },
    });
    expect(shared.status).toBe(201);

    expect((await list(treasury)).map((v) => v.name)).toEqual(['My failures', 'Team: TRX']);
    expect((await list(support)).map((v) => v.name)).toEqual(['Team: TRX']);
    expect(await list(support, 'wallets')).toEqual([]);

    // Saving the same name again replaces the filters (200, same id).
    const again = await bff.call('POST', '/bff/saved-views', {
      browser: treasury,
      body: {
        name: 'Team: TRX',
        subject: 'transactions',
        filters: { asset: 'TRX', status: 'CONFIRMED' },
        visibility: 'organization',
      },
    });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({
      id: SavedViewSchema.parse(shared.json).id,
      filters: { asset: 'TRX', status: 'CONFIRMED' },
    });
  });

  it('lets only the owner or an admin delete a shared view, and audits it', async () => {
    const created = SavedViewSchema.parse(
      (
        await bff.call('POST', '/bff/saved-views', {
          browser: treasury,
          body: { name: 'Shared', subject: 'wallets', filters: {}, visibility: 'organization' },
        })
      ).json,
    );
    const refused = await bff.call('DELETE', `/bff/saved-views/${created.id}`, {
      browser: support,
    });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'FORBIDDEN' });

    const removed = await bff.call('DELETE', `/bff/saved-views/${created.id}`, { browser: admin });
    expect(removed.status).toBe(204);
    expect(await list(treasury, 'wallets')).toEqual([]);
    const audit = AuditPageSchema.parse(
      (await bff.call('GET', '/bff/audit?action=saved-view.delete', { browser: admin })).json,
    );
    expect(audit.items[0]).toMatchObject({ operator: 'admin', resourceId: created.id });
  });

  it('answers 404 for another operator’s personal view, as if it did not exist', async () => {
    const created = SavedViewSchema.parse(
      (
        await bff.call('POST', '/bff/saved-views', {
          browser: treasury,
          body: { name: 'Mine', subject: 'accounts', filters: {}, visibility: 'personal' },
        })
      ).json,
    );
    const response = await bff.call('DELETE', `/bff/saved-views/${created.id}`, { browser: admin });
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('rejects bad input in the error envelope', async () => {
    const response = await bff.call('POST', '/bff/saved-views', {
      browser: support,
      body: {
        name: ' ',
        subject: 'transactions',
        filters: { 'bad key': 'x' },
        visibility: 'personal',
      },
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'VALIDATION_ERROR' });
    const query = await bff.call('GET', '/bff/saved-views?subject=nope', { browser: support });
    expect(query.status).toBe(400);
    expect(query.json).toMatchObject({ code: 'INVALID_QUERY_PARAMETER' });
    expect((await bff.call('GET', '/bff/saved-views')).status).toBe(401);
  });
});
