import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors';
import { createAddressBookStore } from '../governance/address-book-store';
import { storeEngines } from '../test-support/engines';
import { createOperatorStore } from './operators';
import { createSettingsStore } from './settings';

describe.each(storeEngines())('the Sql door ($name)', (engine) => {
  it('turns a duplicate into the 409 envelope of its table, never an internal error', async () => {
    const sql = await engine.open();
    const operators = createOperatorStore(sql, () => 1);
    await operators.add('dana', 'support', 'hash');
    const duplicate = operators.add('dana', 'admin', 'hash');
    await expect(duplicate).rejects.toBeInstanceOf(HttpError);
    await expect(duplicate).rejects.toMatchObject({ code: 'OPERATOR_EXISTS', status: 409 });
    const book = createAddressBookStore(sql, () => 1);
    const entry = { chain: 'tron:nile', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', label: 'x' };
    await book.add({ ...entry, chain: 'tron:nile' }, 'dana');
    await expect(
      sql.run(
        `INSERT INTO address_book (id, chain, address, label, status, created_by, created_at)
         VALUES ('ab_2', ?, ?, 'y', 'PENDING_APPROVAL', 'dana', 1)`,
        [entry.chain, entry.address],
      ),
    ).rejects.toMatchObject({ code: 'ADDRESS_BOOK_DUPLICATE' });
    await expect(
      sql.run("INSERT INTO settings (key, value) VALUES ('k', 'a'), ('k', 'b')"),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', status: 409 });
  });

  it('turns a value the database refuses into a 400', async () => {
    const sql = await engine.open();
    await expect(
      sql.run("UPDATE sessions SET stage = 'nonsense' WHERE id_hash = 'none'"),
    ).resolves.toBe(0);
    await createOperatorStore(sql, () => 1).add('erin', 'support', 'hash');
    await expect(
      sql.run("UPDATE operators SET role = 'root' WHERE username = 'erin'"),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
  });

  it('rolls a failed transaction back whole, and keeps other callers out of it', async () => {
    const sql = await engine.open();
    const settings = createSettingsStore(sql);
    let outside: Promise<number> = Promise.resolve(0);
    const failed = sql.transaction(async (tx) => {
      await tx.run("INSERT INTO settings (key, value) VALUES ('in-tx', '1')");
      // Another request's statement meanwhile: it must not be rolled back with this one.
      outside = sql.run("INSERT INTO settings (key, value) VALUES ('outside', '1')");
      await tx.get('SELECT 1 AS one');
      throw new Error('boom');
    });
    // SQLite runs the other statement after the transaction; PostgreSQL on another
    // connection. Either way it survives the rollback.
    await expect(failed).rejects.toThrow('boom');
    expect(await outside).toBe(1);
    expect(await settings.get('in-tx')).toBeNull();
    expect(await settings.get('outside')).toBe('1');
  });
});
