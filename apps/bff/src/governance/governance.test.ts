import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AddressBookEntrySchema,
  PolicyDecisionSchema,
  PolicySchema,
  PolicyVersionsSchema,
  WithdrawalRequestCreatedSchema,
  WithdrawalRequestListSchema,
  WithdrawalRequestSchema,
  type PolicyDocument,
  type WithdrawalRequest,
} from '@settlement/protocol';
import {
  fundedWallet,
  openEvents,
  startBff,
  startSandbox,
  waitFor,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';
import { startCuttableProxy } from '../test-support/cuttable-proxy';

/** A valid TRON address that is no wallet of the organization. */
const EXTERNAL = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const BOOKED = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const TRX = (units: number) => (BigInt(units) * 1_000_000n).toString();

const POLICY: PolicyDocument = {
  rules: [
    { id: 'too-big', name: 'Too big', match: { amountAtomicGte: TRX(400) }, action: 'BLOCK' },
    { id: 'internal', name: 'Internal', match: { destination: 'INTERNAL' }, action: 'ALLOW' },
    { id: 'book', name: 'Address book', match: { destination: 'ADDRESS_BOOK' }, action: 'ALLOW' },
    {
      id: 'external',
      name: 'External',
      match: { destination: 'ANY' },
      action: 'REQUIRE_APPROVAL',
      approvals: { count: 1, fromRoles: ['admin'] },
    },
  ],
  limits: [
    {
      id: 'wallet-day',
      name: 'Per wallet per day',
      scope: 'WALLET',
      asset: 'TRX',
      windowHours: 24,
      maxAtomic: TRX(250),
    },
  ],
  settings: { requestExpiryHours: 24 },
};

let sandbox: SandboxProcess;
let bff: BffInstance;
let dataDir: string;
const who = {} as Record<'admin' | 'admin2' | 'treasury' | 'support', Browser>;
let walletId: string;

async function loginAll(instance: BffInstance) {
  for (const name of ['admin', 'admin2', 'treasury', 'support'] as const)
    who[name] = await instance.login(name);
}

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff({ sandbox, policy: POLICY });
  dataDir = bff.dataDir;
  await loginAll(bff);
  ({ walletId } = await fundedWallet(bff, who.admin, who.treasury));
}, 90_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

/** The request once it is SUBMITTED, read as support would every 50 ms. */
function submittedWithin(id: string, timeoutMs: number): Promise<WithdrawalRequest> {
  return waitFor(async () => {
    const response = await bff.call('GET', `/bff/withdrawal-requests/${id}`, {
      browser: who.support,
    });
    const request = WithdrawalRequestSchema.parse(response.json);
    return request.status === 'SUBMITTED' ? request : null;
  }, timeoutMs);
}

function withdraw(operationId: string, amountAtomic: string, toAddress = EXTERNAL) {
  return bff.call('POST', '/bff/api/v1/transactions', {
    browser: who.treasury,
    body: { walletId, asset: 'TRX', toAddress, amountAtomic },
    headers: { 'x-operation-id': operationId },
  });
}

/** Rows of upstream withdrawal submissions (POST /api/v1/transactions) in the request log. */
async function upstreamSubmissions(): Promise<{ idempotency_key: string | null }[]> {
  await bff.bff.services.logs.flush();
  return bff.db
    .prepare(
      "SELECT idempotency_key FROM request_log WHERE method = 'POST' AND path = '/api/v1/transactions'",
    )
    .all() as { idempotency_key: string | null }[];
}

async function upstreamByReference(clientReference: string | null): Promise<unknown[]> {
  const response = await bff.call(
    'GET',
    `/bff/api/v1/transactions?clientReference=${clientReference ?? ''}`,
    { browser: who.support },
  );
  return (response.json as { items: unknown[] }).items;
}

function requestOf(response: { json: unknown }): WithdrawalRequest {
  return WithdrawalRequestCreatedSchema.parse(response.json).withdrawalRequest;
}

describe('withdrawal governance against the sandbox', () => {
  let first: WithdrawalRequest;

  it('answers 202 with a withdrawal request and sends nothing upstream', async () => {
    const before = (await upstreamSubmissions()).length;
    const response = await withdraw('gov-1', TRX(10));
    expect(response.status).toBe(202);
    first = requestOf(response);
    expect(first).toMatchObject({
      status: 'AWAITING_APPROVAL',
      requester: 'treasury',
      operationId: 'gov-1',
      approvalsRequired: { count: 1, fromRoles: ['admin'] },
      transactionId: null,
    });
    expect(first.decision.rule?.id).toBe('external');
    expect(await upstreamSubmissions()).toHaveLength(before);
    expect(await upstreamByReference(first.clientReference)).toEqual([]);
    // A retry of the same operation id is the same request, still nothing upstream.
    const again = await withdraw('gov-1', TRX(10));
    expect(again.status).toBe(202);
    expect(requestOf(again).id).toBe(first.id);
    expect(await upstreamSubmissions()).toHaveLength(before);
    const other = await withdraw('gov-1', TRX(11));
    expect(other.status).toBe(409);
  });

  it('refuses the requester approving their own request with 403 SELF_APPROVAL_FORBIDDEN', async () => {
    const self = await bff.call('POST', `/bff/withdrawal-requests/${first.id}/approve`, {
      browser: who.treasury,
    });
    expect(self.status).toBe(403);
    expect(self.json).toMatchObject({ code: 'SELF_APPROVAL_FORBIDDEN' });
    expect(self.headers['x-request-id']).toBe((self.json as { requestId: string }).requestId);
    const support = await bff.call('POST', `/bff/withdrawal-requests/${first.id}/approve`, {
      browser: who.support,
    });
    expect(support.status).toBe(403);
    expect(support.json).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('submits exactly one upstream transaction under 20 concurrent approvals', async () => {
    const before = (await upstreamSubmissions()).length;
    const socket = await openEvents(bff, who.support);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        bff.call('POST', `/bff/withdrawal-requests/${first.id}/approve`, { browser: who.admin }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 200));
    for (const answer of answers) {
      expect(WithdrawalRequestSchema.parse(answer.json).status).toBe('SUBMITTED');
    }
    const done = WithdrawalRequestSchema.parse(answers[0]?.json);
    expect(done.approvals.map((a) => a.operator)).toEqual(['admin']);
    expect(done.transactionId).toMatch(/.+/);
    const submissions = (await upstreamSubmissions()).slice(before);
    expect(new Set(submissions.map((s) => s.idempotency_key)).size).toBe(1);
    expect(await upstreamByReference(done.clientReference)).toHaveLength(1);
    // The requester's replay of the same operation shows the submitted request, nothing new.
    const replay = await withdraw('gov-1', TRX(10));
    expect(requestOf(replay)).toMatchObject({
      status: 'SUBMITTED',
      transactionId: done.transactionId,
    });
    expect((await upstreamSubmissions()).length).toBe(before + submissions.length);
    await vi.waitFor(() => {
      expect(socket.frames).toContainEqual({
        kind: 'change',
        topic: 'withdrawal-requests',
        invalidates: ['/bff/withdrawal-requests', `/bff/withdrawal-requests/${first.id}`],
      });
    });
    socket.ws.close();
    const audit = bff.db
      .prepare('SELECT action, outcome FROM audit_log WHERE resource_id = ? ORDER BY id')
      .all(first.id);
    expect(audit).toEqual([
      { action: 'withdrawal-request.create', outcome: 'awaiting approval' },
      { action: 'withdrawal-request.approve', outcome: 'approved (last)' },
      { action: 'withdrawal-request.submit', outcome: 'succeeded' },
    ]);
  });

  it('blocks with 403 POLICY_BLOCKED naming the rule, nothing upstream', async () => {
    const before = (await upstreamSubmissions()).length;
    const response = await withdraw('gov-big', TRX(400));
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({
      code: 'POLICY_BLOCKED',
      details: [{ rule: { id: 'too-big', name: 'Too big' }, limit: null }],
    });
    expect(await upstreamSubmissions()).toHaveLength(before);
  });

  it('counts pending requests against limits, in the dry run and on submission', async () => {
    const pending = await withdraw('gov-pending', TRX(200));
    expect(pending.status).toBe(202);
    const dry = await bff.call('POST', '/bff/policy/dry-run', {
      browser: who.support,
      body: { walletId, asset: 'TRX', toAddress: EXTERNAL, amountAtomic: TRX(50) },
    });
    expect(dry.status).toBe(200);
    const decision = PolicyDecisionSchema.parse(dry.json);
    expect(decision).toMatchObject({ action: 'BLOCK', blockedByLimit: 'wallet-day' });
    expect(decision.limits).toEqual([
      expect.objectContaining({
        id: 'wallet-day',
        usedAtomic: TRX(210),
        maxAtomic: TRX(250),
        remainingAtomic: TRX(40),
        wouldExceed: true,
      }),
    ]);
    const before = (await upstreamSubmissions()).length;
    const blocked = await withdraw('gov-over', TRX(50));
    expect(blocked.status).toBe(403);
    expect(blocked.json).toMatchObject({
      code: 'POLICY_BLOCKED',
      details: [{ limit: 'wallet-day' }],
    });
    expect(await upstreamSubmissions()).toHaveLength(before);

    // Cancelling the pending request frees its share of the limit.
    const id = requestOf(pending).id;
    const notMine = await bff.call('POST', `/bff/withdrawal-requests/${id}/cancel`, {
      browser: who.admin,
    });
    expect(notMine.status).toBe(403);
    const cancelled = await bff.call('POST', `/bff/withdrawal-requests/${id}/cancel`, {
      browser: who.treasury,
    });
    expect(WithdrawalRequestSchema.parse(cancelled.json).status).toBe('CANCELLED');
    const late = await bff.call('POST', `/bff/withdrawal-requests/${id}/approve`, {
      browser: who.admin,
    });
    expect(late.json).toMatchObject({ code: 'REQUEST_NOT_PENDING' });
  });

  it('rejects with a reason only', async () => {
    const id = requestOf(await withdraw('gov-reject', TRX(1))).id;
    const noReason = await bff.call('POST', `/bff/withdrawal-requests/${id}/reject`, {
      browser: who.admin,
      body: {},
    });
    expect(noReason.status).toBe(400);
    const rejected = await bff.call('POST', `/bff/withdrawal-requests/${id}/reject`, {
      browser: who.admin,
      body: { reason: 'unknown beneficiary' },
    });
    expect(WithdrawalRequestSchema.parse(rejected.json)).toMatchObject({
      status: 'REJECTED',
      rejection: { operator: 'admin', reason: 'unknown beneficiary' },
    });
    const list = await bff.call('GET', '/bff/withdrawal-requests?status=REJECTED', {
      browser: who.support,
    });
    expect(WithdrawalRequestListSchema.parse(list.json).items.map((i) => i.id)).toContain(id);
  });
});

describe('address book', () => {
  it('needs an admin other than the creator, refuses duplicates, and then allows sending', async () => {
    const created = await bff.call('POST', '/bff/address-book', {
      browser: who.admin,
      body: { chain: 'tron:nile', address: BOOKED, label: 'Exchange hot wallet' },
    });
    expect(created.status).toBe(201);
    const entry = AddressBookEntrySchema.parse(created.json);
    expect(entry.status).toBe('PENDING_APPROVAL');
    const duplicate = await bff.call('POST', '/bff/address-book', {
      browser: who.treasury,
      body: { chain: 'tron:nile', address: BOOKED, label: 'Again' },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json).toMatchObject({
      code: 'ADDRESS_BOOK_DUPLICATE',
      details: [{ id: entry.id, label: 'Exchange hot wallet' }],
    });
    const bad = await bff.call('POST', '/bff/address-book', {
      browser: who.treasury,
      body: { chain: 'tron:nile', address: 'T123', label: 'Bad' },
    });
    expect(bad.json).toMatchObject({ code: 'INVALID_ADDRESS' });
    // Pending entries do not match ADDRESS_BOOK: the withdrawal still needs approval.
    expect((await withdraw('gov-book-pending', TRX(1), BOOKED)).status).toBe(202);

    const self = await bff.call('POST', `/bff/address-book/${entry.id}/approve`, {
      browser: who.admin,
    });
    expect(self.json).toMatchObject({ code: 'SELF_APPROVAL_FORBIDDEN' });
    const byTreasury = await bff.call('POST', `/bff/address-book/${entry.id}/approve`, {
      browser: who.treasury,
    });
    expect(byTreasury.json).toMatchObject({ code: 'FORBIDDEN' });
    const approved = await bff.call('POST', `/bff/address-book/${entry.id}/approve`, {
      browser: who.admin2,
    });
    expect(AddressBookEntrySchema.parse(approved.json)).toMatchObject({
      status: 'ACTIVE',
      approvedBy: 'admin2',
    });
    const sent = await withdraw('gov-book-active', TRX(1), BOOKED);
    expect(sent.status).toBe(201);

    const removed = await bff.call('DELETE', `/bff/address-book/${entry.id}`, {
      browser: who.admin2,
    });
    expect(AddressBookEntrySchema.parse(removed.json).status).toBe('REMOVED');
    expect((await withdraw('gov-book-removed', TRX(1), BOOKED)).status).toBe(202);
  });
});

describe('policy versions', () => {
  it('stores a new version per change (admin only) and refuses invalid documents naming the rule', async () => {
    const current = PolicySchema.parse(
      (await bff.call('GET', '/bff/policy', { browser: who.support })).json,
    );
    const byTreasury = await bff.call('PUT', '/bff/policy', {
      browser: who.treasury,
      body: POLICY,
    });
    expect(byTreasury.status).toBe(403);
    const unknownWallet = await bff.call('PUT', '/bff/policy', {
      browser: who.admin,
      body: {
        ...POLICY,
        rules: [{ id: 'w', name: 'Ghost wallet', match: { walletIds: ['nope'] }, action: 'ALLOW' }],
      },
    });
    expect(unknownWallet.status).toBe(400);
    expect(unknownWallet.json).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ ruleId: 'w', message: 'Rule "Ghost wallet": unknown wallet nope' }],
    });
    const fractional = await bff.call('PUT', '/bff/policy', {
      browser: who.admin,
      body: { rules: [{ id: 'f', name: 'F', match: { amountAtomicLt: '1.5' }, action: 'ALLOW' }] },
    });
    expect(fractional.status).toBe(400);
    expect(fractional.json).toMatchObject({ details: [{ ruleId: 'f' }] });
    const saved = await bff.call('PUT', '/bff/policy', { browser: who.admin, body: POLICY });
    expect(PolicySchema.parse(saved.json)).toMatchObject({
      version: current.version + 1,
      createdBy: 'admin',
    });
    const versions = await bff.call('GET', '/bff/policy/versions', { browser: who.support });
    expect(
      PolicyVersionsSchema.parse(versions.json)
        .items.map((v) => v.version)
        .slice(0, 2),
    ).toEqual([current.version + 1, current.version]);
  });
});

describe('an upstream outage between approval and submission', () => {
  async function faults(body: Record<string, unknown>): Promise<void> {
    const path = `/sandbox/orgs/${bff.credentials.orgId}/faults`;
    expect((await sandbox.control('PUT', path, body)).status).toBe(200);
  }

  it('sends the approved request within seconds of the upstream answering again, once', async () => {
    const id = requestOf(await withdraw('gov-outage', TRX(2))).id;
    await faults({ upstreamUnavailableRate: 1 });
    let approved: WithdrawalRequest;
    try {
      const response = await bff.call('POST', `/bff/withdrawal-requests/${id}/approve`, {
        browser: who.admin,
      });
      approved = WithdrawalRequestSchema.parse(response.json);
    } finally {
      await faults({ upstreamUnavailableRate: null });
    }
    // Recorded, not sent: the upstream did not answer the re-check.
    expect(approved.status).toBe('APPROVED');
    // The sweep of every minute would send it up to 60 s from now; the retry after a deferred
    // submission comes 2 s after it.
    const submitted = await submittedWithin(id, 8_000);
    expect(await upstreamByReference(submitted.clientReference)).toHaveLength(1);
  });

  it("after a long network outage, sends it at the upstream's first answer, not when the doubled wait ends", async () => {
    // The BFF reaches the sandbox through a proxy the test can cut, and retries after 250 ms,
    // then 500 ms, 1 s, 2 s, 4 s: the 2 s default scaled down by 8.
    const proxy = await startCuttableProxy(sandbox.url);
    await bff.close();
    bff = await startBff({ sandbox, dataDir, upstreamUrl: proxy.url, resumeFirstRetryMs: 250 });
    await loginAll(bff);
    const id = requestOf(await withdraw('gov-long-outage', TRX(2))).id;
    proxy.cut();
    let restoredAt: number;
    try {
      const response = await bff.call('POST', `/bff/withdrawal-requests/${id}/approve`, {
        browser: who.admin,
      });
      expect(WithdrawalRequestSchema.parse(response.json).status).toBe('APPROVED');
      // Deferred at ~0, 0.25, 0.75, 1.75 and 3.75 s: the next retry waits 4 s, until ~7.75 s.
      await new Promise((resolve) => setTimeout(resolve, 4_500));
    } finally {
      proxy.restore();
      restoredAt = Date.now();
    }
    // Probed every 250 ms meanwhile: sent a probe or two after the network is back, ~3 s
    // before that retry would have.
    const submitted = await submittedWithin(id, 1_500);
    expect(Date.now() - restoredAt).toBeLessThan(1_500);
    expect(await upstreamByReference(submitted.clientReference)).toHaveLength(1);
    await bff.close();
    await proxy.close();
    bff = await startBff({ sandbox, dataDir });
    await loginAll(bff);
  });
});

describe('restart between approval and submission', () => {
  it('resumes the approved request at startup and submits it exactly once', async () => {
    const id = requestOf(await withdraw('gov-restart', TRX(2))).id;
    await bff.close();
    // The upstream is unreachable while the admin approves: the approval is recorded, the
    // submission cannot happen (the BFF might as well have been killed at this point).
    const cut = await startBff({ sandbox, dataDir, upstreamUrl: 'http://127.0.0.1:9' });
    const admin = await cut.login('admin');
    const approved = await cut.call('POST', `/bff/withdrawal-requests/${id}/approve`, {
      browser: admin,
    });
    expect(WithdrawalRequestSchema.parse(approved.json).status).toBe('APPROVED');
    await cut.close();

    bff = await startBff({ sandbox, dataDir });
    await loginAll(bff);
    const submitted = await submittedWithin(id, 15_000);
    expect(await upstreamByReference(submitted.clientReference)).toHaveLength(1);
  });
});
