import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { utf8Bytes } from '@settlement/protocol';
import { signRestRequest } from '@settlement/protocol/signing';
import { createOrgClient, startHarness } from '../test-support/sandbox-harness';
import { openDb, type Db } from './db';
import { createGroupCommit } from './group-commit';

let dir: string;
let db: Db;
let reader: Database.Database;
let scheduled: (() => void)[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-group-commit-'));
  db = openDb(join(dir, 'sandbox.db'));
  db.exec('CREATE TABLE rows (name TEXT NOT NULL)');
  reader = new Database(join(dir, 'sandbox.db'), { readonly: true });
  scheduled = [];
});
afterEach(() => {
  reader.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const insert = (name: string) => db.prepare('INSERT INTO rows (name) VALUES (?)').run(name);
const committedNames = () =>
  reader
    .prepare<[], { name: string }>('SELECT name FROM rows ORDER BY name')
    .all()
    .map((row) => row.name);
const runScheduled = () => {
  for (const run of scheduled.splice(0)) run();
};

describe('createGroupCommit', () => {
  it('commits every write of a loop turn once, when its scheduled flush runs', async () => {
    const groupCommit = createGroupCommit(db, (run) => scheduled.push(run));
    groupCommit.join();
    insert('a');
    groupCommit.join();
    insert('b');
    let isDone = false;
    const done = groupCommit.committed().then(() => {
      isDone = true;
    });
    expect(scheduled).toHaveLength(1);
    expect(committedNames()).toEqual([]);
    await Promise.resolve();
    expect(isDone).toBe(false);
    runScheduled();
    await done;
    expect(committedNames()).toEqual(['a', 'b']);
    expect(groupCommit.isOpen()).toBe(false);
  });

  it('rolls back a refused request (its savepoint) and keeps the others of the batch', () => {
    const groupCommit = createGroupCommit(db, (run) => scheduled.push(run));
    groupCommit.join();
    insert('nonce-1');
    expect(() => {
      db.transaction(() => {
        insert('refused-write');
        throw new Error('refused');
      })();
    }).toThrow('refused');
    insert('nonce-2');
    db.transaction(() => insert('accepted-write'))();
    runScheduled();
    expect(committedNames()).toEqual(['accepted-write', 'nonce-1', 'nonce-2']);
  });

  it('rejects the waiters of a batch SQLite rolled back, and opens a new one', async () => {
    const groupCommit = createGroupCommit(db, (run) => scheduled.push(run));
    groupCommit.join();
    insert('lost');
    const lost = groupCommit.committed();
    db.exec('ROLLBACK'); // what SQLite does itself on an I/O error or a full disk
    groupCommit.join();
    insert('kept');
    await expect(lost).rejects.toThrow();
    runScheduled();
    await groupCommit.committed();
    expect(committedNames()).toEqual(['kept']);
  });

  it('flush commits at once (what the event stream does before it reads the outbox)', async () => {
    const groupCommit = createGroupCommit(db, (run) => scheduled.push(run));
    groupCommit.join();
    insert('a');
    groupCommit.flush();
    expect(committedNames()).toEqual(['a']);
    runScheduled();
    await groupCommit.committed();
  });
});

describe('signed requests in one group commit', () => {
  it('keeps every nonce used, of accepted and refused requests alike, across a restart', async () => {
    const harness = await startHarness();
    try {
      const client = await createOrgClient(harness, ['accounts:read', 'wallets:create']);
      const requests = Array.from({ length: 8 }, (_, i) => {
        // Even ones are accepted; odd ones are refused by validation after authentication.
        const body = utf8Bytes(JSON.stringify(i % 2 === 0 ? { name: `Batch ${i}` } : { nope: i }));
        const headers = {
          ...signRestRequest(client.signer, {
            method: 'POST',
            target: '/api/v1/ledger/accounts',
            body,
          }),
          'content-type': 'application/json',
        };
        return { body, headers };
      });
      const send = (baseUrl: string, r: (typeof requests)[number]) =>
        fetch(`${baseUrl}/api/v1/ledger/accounts`, {
          method: 'POST',
          headers: r.headers,
          body: r.body,
        }).then(async (response) => ({
          status: response.status,
          code: ((await response.json()) as { code?: string }).code,
        }));
      const first = await Promise.all(requests.map((r) => send(harness.baseUrl, r)));
      expect(first.map((r) => r.status)).toEqual([201, 400, 201, 400, 201, 400, 201, 400]);
      await harness.restart();
      const replays = await Promise.all(requests.map((r) => send(harness.baseUrl, r)));
      expect(replays).toEqual(requests.map(() => ({ status: 401, code: 'UNAUTHENTICATED' })));
      const list = await client.get('/api/v1/ledger/accounts?limit=50');
      const names = (list.body as { items: { name: string }[] }).items.map((a) => a.name);
      expect(names.filter((n) => n.startsWith('Batch ')).sort()).toEqual([
        'Batch 0',
        'Batch 2',
        'Batch 4',
        'Batch 6',
      ]);
    } finally {
      await harness.close();
    }
  });
});
