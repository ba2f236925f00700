import { describe, expect, it } from 'vitest';
import type { PolicyDecision } from '@settlement/protocol';
import { storeEngines } from '../test-support/engines';
import { explaining } from '../test-support/explaining';
import { createApprovalLookup } from './approvals';

const DECISION: PolicyDecision = {
  action: 'REQUIRE_APPROVAL',
  rule: { id: 'rule-1', name: 'Everything' },
  reasons: [],
  approvals: { count: 1, fromRoles: ['admin'] },
  limits: [],
  blockedByLimit: null,
  destination: { isAddressBook: false, isInternal: false },
  policyVersion: 1,
};

describe.each(storeEngines())('withdrawal requests in the support look-up ($name)', (engine) => {
  it('finds a request by any of its six ids through indexes, never by reading every request', async () => {
    const sql = await engine.open();
    await sql.run(
      `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
       INSERT INTO withdrawal_requests (id, operation_id, requester, status, wallet_id, account_id,
         chain, asset, to_address, amount_atomic, client_reference, body, policy_version,
         decision, approvals_required, transaction_id, correlation_id, created_at, updated_at,
         expires_at)
       SELECT 'wr-' || i, 'op-' || i, 'treasury', 'SUBMITTED', 'wal-1', 'acc-1', 'tron:nile',
         'TRX', 'T-to-' || i, '1000000', 'ref-' || i, ?, 1, ?, ?, 'tx-' || i,
         'corr-' || i, i, i, i FROM n`,
      [new Uint8Array([123, 125]), JSON.stringify(DECISION), JSON.stringify(DECISION.approvals)],
    );
    if (engine.name === 'postgres') await sql.run('ANALYZE');
    const plans: string[] = [];
    const lookUp = createApprovalLookup(
      explaining(sql, (text) => text.startsWith('SELECT id FROM withdrawal_requests WHERE'), plans),
    );
    for (const q of ['wr-7', 'op-7', 'tx-7', 'corr-7', 'ref-7', 'T-to-7']) {
      expect((await lookUp(q)).map((request) => request.id)).toEqual(['wr-7']);
    }
    expect(plans).toHaveLength(6);
    for (const plan of plans) {
      if (engine.name === 'sqlite') {
        expect(plan).toContain('MULTI-INDEX OR');
        expect(plan).not.toMatch(/SCAN withdrawal_requests/);
      } else {
        expect(plan).toContain('BitmapOr');
        expect(plan).not.toMatch(/Seq Scan on withdrawal_requests/);
      }
    }
  });
});
