import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app';
import { appendEvent, orgEvents } from '../events/outbox';
import { EVENT_RETENTION_MS, pruneExpired } from './housekeeping';

let dir = '';
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('pruneExpired', () => {
  it('drops expired nonces and old events but keeps each org’s latest event', () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-housekeeping-'));
    let now = Date.parse('2030-01-01T00:00:00Z');
    sandbox = createSandbox({ dataDir: dir, adminToken: 'x'.repeat(20), nowMs: () => now });
    const { db } = sandbox.ctx;
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o', 'O', '2030-01-01')").run();
    db.prepare(
      "INSERT INTO nonces (key_id, nonce, expires_at) VALUES ('k', 'old', ?), ('k', 'new', ?)",
    ).run(now - 1, now + 600_000);
    db.transaction(() => {
      for (let i = 0; i < 3; i += 1) {
        appendEvent(db, {
          orgId: 'o',
          type: 'account.created',
          correlationId: null,
          occurredAt: '2030-01-01T00:00:00.000Z',
          data: { i },
        });
      }
    })();
    expect(pruneExpired(sandbox.ctx)).toMatchObject({ nonces: 1, events: 0 });

    now += EVENT_RETENTION_MS + 60_000;
    expect(pruneExpired(sandbox.ctx).events).toBe(2);
    const kept = orgEvents(db, 'o');
    expect(kept.map((e) => e.sequence)).toEqual([3]);
    db.transaction(() => {
      const next = appendEvent(db, {
        orgId: 'o',
        type: 'account.created',
        correlationId: null,
        occurredAt: new Date(now).toISOString(),
        data: {},
      });
      expect(next.sequence).toBe(4);
    })();
  });
});
