import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import express from 'express';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '@settlement/protocol';
import { errorMiddleware, isStorageUnavailable, requestIdMiddleware } from './errors';
import { storeError } from './store/sql';
import {
  openEvents,
  startBff,
  startSandbox,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from './test-support/harness';

/** The error better-sqlite3 really throws when the database cannot grow (a full disk). */
function realSqliteFull(): unknown {
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE ballast (x BLOB)');
    db.pragma('max_page_count = 3');
    db.prepare('INSERT INTO ballast VALUES (?)').run(Buffer.alloc(64 * 1024));
    return null;
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
}

/** PostgreSQL's disk_full as node-postgres reports it. */
function pgDiskFull(): unknown {
  const error = new pg.DatabaseError('could not extend file: No space left on device', 0, 'error');
  error.code = '53100';
  return error;
}

describe('isStorageUnavailable', () => {
  it('recognizes a full disk of either engine, and not a constraint or a plain bug', () => {
    const full = realSqliteFull();
    expect(full).toMatchObject({ code: 'SQLITE_FULL' });
    expect(isStorageUnavailable(full)).toBe(true);
    expect(isStorageUnavailable(pgDiskFull())).toBe(true);
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(isStorageUnavailable(storeError(unique))).toBe(false);
    expect(isStorageUnavailable(new TypeError('x is undefined'))).toBe(false);
  });
});

describe('the error middleware with the storage unavailable', () => {
  const app = express();
  app.use(requestIdMiddleware);
  app.get('/sqlite-full', () => {
    throw realSqliteFull();
  });
  app.get('/pg-full', () => {
    throw pgDiskFull();
  });
  app.use(errorMiddleware(pino({ level: 'silent' })));

  it.each(['/sqlite-full', '/pg-full'])(
    'answers %s with a retryable 503 in the envelope, never a 500',
    async (path) => {
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as { port: number };
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(response.status).toBe(503);
        const body = ErrorEnvelopeSchema.parse(await response.json());
        expect(body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryable: true });
        expect(body.message).not.toMatch(/SQLITE|extend file/);
      } finally {
        server.close();
      }
    },
  );
});

/** The raw answer to an event-socket upgrade the BFF refuses. */
function refusedUpgrade(
  instance: BffInstance,
  browser: Browser,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${instance.url}/bff/events`, {
      headers: {
        origin: instance.origin,
        cookie: browser.cookie ?? '',
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': Buffer.alloc(16, 1).toString('base64'),
      },
    });
    req.on('upgrade', () => {
      reject(new Error('the socket was upgraded'));
    });
    req.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a BFF whose database is locked by another writer (SQLITE_BUSY)', () => {
  let sandbox: SandboxProcess;
  let bff: BffInstance;
  let clock = Date.now();
  let support: Browser;
  let other: Database.Database;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    sandbox = await startSandbox({ blockMs: 50 });
    bff = await startBff({ sandbox, now: () => clock });
    support = await bff.login('support');
    // Waiting 5 s for the lock would only slow the test down; the outcome is the same.
    bff.db.pragma('busy_timeout = 20');
    other = new Database(join(bff.dataDir, 'bff', 'bff.db'));
  }, 60_000);

  afterAll(async () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    await bff.close();
    await sandbox.stop();
    process.off('unhandledRejection', onUnhandled);
  });

  /** Another process holds the write lock while `fn` runs; the session is due a touch. */
  async function whileLocked(fn: () => Promise<void>): Promise<void> {
    clock += 5_000;
    other.exec('BEGIN IMMEDIATE');
    try {
      await fn();
    } finally {
      other.exec('ROLLBACK');
    }
  }

  it('answers a request with a retryable 503 in the envelope, then serves it once the lock is gone', async () => {
    await whileLocked(async () => {
      const response = await bff.call('GET', '/bff/auth/me', { browser: support });
      expect(response.status).toBe(503);
      expect(ErrorEnvelopeSchema.parse(response.json)).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        retryable: true,
      });
    });
    expect((await bff.call('GET', '/bff/auth/me', { browser: support })).status).toBe(200);
  });

  it('refuses the event socket with a 503 (never a crash), then accepts it once the lock is gone', async () => {
    await whileLocked(async () => {
      const refused = await refusedUpgrade(bff, support);
      expect(refused.status).toBe(503);
      expect(ErrorEnvelopeSchema.parse(JSON.parse(refused.body))).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        retryable: true,
      });
      await expect(openEvents(bff, support)).rejects.toThrow(/503/);
    });
    expect(bff.logLines.some((line) => line.includes('storage unavailable'))).toBe(true);
    const socket = await openEvents(bff, support);
    await expect.poll(() => socket.frames[0]).toMatchObject({ kind: 'upstream' });
    socket.ws.close();
    expect(unhandled).toEqual([]);
  });
});
