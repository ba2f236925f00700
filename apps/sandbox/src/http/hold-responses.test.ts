import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import express, { type Response } from 'express';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestIdMiddleware } from '../errors';
import { createLogger } from '../logger';
import { openDb, type Db } from '../store/db';
import { createGroupCommit, type GroupCommit } from '../store/group-commit';
import { holdResponses } from './hold-responses';

let dir: string;
let db: Db;
let reader: Database.Database;
let server: Server;
let baseUrl: string;
let scheduled: (() => void)[];
let groupCommit: GroupCommit;
let answered: Response | null;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-hold-'));
  db = openDb(join(dir, 'sandbox.db'));
  db.exec('CREATE TABLE rows (name TEXT NOT NULL)');
  reader = new Database(join(dir, 'sandbox.db'), { readonly: true });
  scheduled = [];
  answered = null;
  groupCommit = createGroupCommit(db, (run) => scheduled.push(run));
  const app = express();
  app.use(requestIdMiddleware, holdResponses(groupCommit, createLogger('silent')));
  app.post('/write', (_req, res) => {
    groupCommit.join();
    db.prepare("INSERT INTO rows (name) VALUES ('written')").run();
    res.status(201).json({ ok: true });
    answered = res;
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) =>
    server.once('listening', () => {
      resolve();
    }),
  );
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  reader.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const committedRows = () =>
  reader.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM rows').get()?.n ?? 0;

describe('holdResponses', () => {
  it('sends nothing until the batch the handler wrote into is committed', async () => {
    const response = fetch(`${baseUrl}/write`, { method: 'POST' });
    await vi.waitFor(() => {
      expect(answered).not.toBeNull();
    });
    expect(answered?.headersSent).toBe(false);
    expect(committedRows()).toBe(0);
    for (const run of scheduled.splice(0)) run();
    const got = await response;
    expect(got.status).toBe(201);
    expect(await got.json()).toEqual({ ok: true });
    expect(committedRows()).toBe(1);
  });

  it('answers 500 INTERNAL_ERROR in the envelope when the batch does not commit', async () => {
    const response = fetch(`${baseUrl}/write`, { method: 'POST' });
    await vi.waitFor(() => {
      expect(answered).not.toBeNull();
    });
    db.exec('ROLLBACK'); // SQLite gave the batch up (an I/O error, a full disk)
    for (const run of scheduled.splice(0)) run();
    const got = await response;
    expect(got.status).toBe(500);
    const body = (await got.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'INTERNAL_ERROR', retryable: true });
    expect(body.requestId).toBe(got.headers.get('x-request-id'));
    expect(committedRows()).toBe(0);
  });
});
