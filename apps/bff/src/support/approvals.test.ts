import { describe, expect, it } from 'vitest';
import { insertWithdrawalRequests } from '../test-support/bulk-rows';
import { storeEngines } from '../test-support/engines';
import { expectIndexedOr, explaining } from '../test-support/explaining';
import { createApprovalLookup } from './approvals';

describe.each(storeEngines())('withdrawal requests in the support look-up ($name)', (engine) => {
  it('finds a request by any of its six ids through indexes, never by reading every request', async () => {
    const sql = await engine.open();
    await insertWithdrawalRequests(sql, 20_000);
    if (engine.name === 'postgres') await sql.run('ANALYZE');
    const plans: string[] = [];
    const lookUp = createApprovalLookup(
      explaining(sql, (text) => text.startsWith('SELECT id FROM withdrawal_requests WHERE'), plans),
    );
    for (const q of ['wr-7', 'op-7', 'tx-7', 'corr-7', 'ref-7', 'T-to-7']) {
      expect((await lookUp(q)).map((request) => request.id)).toEqual(['wr-7']);
    }
    expect(plans).toHaveLength(6);
    for (const plan of plans) expectIndexedOr(plan, sql.dialect, 'withdrawal_requests');
  });
});
