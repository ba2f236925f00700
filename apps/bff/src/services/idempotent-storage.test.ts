import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  fundedWallet,
  startBff,
  startSandbox,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';

/**
 * The journal write after the upstream answered can fail (a full disk). The operation then
 * exists upstream while its row still says "pending": a retry must answer it, not send it a
 * second time and not refuse it as "in progress" of some other process.
 */

let sandbox: SandboxProcess;
let bff: BffInstance;
let treasury: Browser;
let walletId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20 });
  bff = await startBff({ sandbox });
  const admin = await bff.login('admin');
  treasury = await bff.login('treasury');
  ({ walletId } = await fundedWallet(bff, admin, treasury));
}, 120_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

function failNextFinish(): void {
  const journal = bff.bff.services.journal;
  const real = journal.finish.bind(journal);
  let isArmed = true;
  journal.finish = (...args) => {
    if (!isArmed) return real(...args);
    isArmed = false;
    return Promise.reject(
      Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
    );
  };
}

it('answers a retry with the one upstream transaction after the journal write failed', async () => {
  const send = () =>
    bff.call('POST', '/bff/api/v1/transactions', {
      browser: treasury,
      body: {
        walletId,
        asset: 'TRX',
        toAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        amountAtomic: '1000001',
        clientReference: 'storage-fault-1',
      },
      headers: { 'x-operation-id': 'storage-fault-op-1' },
    });
  failNextFinish();
  const first = await send();
  expect(first.status, first.text).toBe(503);
  expect(first.json).toMatchObject({ retryable: true });

  const retry = await send();
  expect(retry.status, retry.text).toBe(201);
  const list = await bff.call('GET', '/bff/api/v1/transactions?clientReference=storage-fault-1', {
    browser: treasury,
  });
  const items = (list.json as { items: { id: string }[] }).items;
  expect(items).toHaveLength(1);
  expect((retry.json as { id: string }).id).toBe(items[0]?.id);
}, 60_000);
