import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SLOW_ANSWER_MS } from '../../../lib/use-is-slow';
import { renderWithApp } from '../../../test/render';
import {
  envelope,
  heldReply,
  startApiTestServer,
  type TestServer,
} from '../../../test/test-server';
import { awaitingMyApproval } from '../api/approvals-inbox';
import { withdrawalRequestFixture } from '../../../test/governance-fixtures';
import { externalNeedsAdmin } from '../governance-fixtures';
import { decisionSummary } from './decision-explanation';
import { RequestActions } from './request-actions';

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
});
afterAll(() => server.close());

const request = withdrawalRequestFixture({ decision: externalNeedsAdmin });

describe('RequestActions', () => {
  it('offers the requester only Cancel, never Approve', () => {
    renderWithApp(
      <RequestActions request={request} operator={{ username: 'treasury', role: 'treasury' }} />,
    );
    expect(screen.getByRole('button', { name: 'Cancel request' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByText(/another operator must approve it/)).toBeVisible();
  });

  it('tells an operator without the required role why they cannot approve', () => {
    renderWithApp(
      <RequestActions request={request} operator={{ username: 'support', role: 'support' }} />,
    );
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByText('Approving needs the role admin.')).toBeVisible();
  });

  it('says an approved request is being sent, and retried on its own, rather than just settled', () => {
    const operator = { username: 'admin', role: 'admin' };
    const { unmount } = renderWithApp(
      <RequestActions request={{ ...request, status: 'APPROVED' }} operator={operator} />,
    );
    expect(screen.getByText(/Approved and being sent/)).toHaveTextContent(
      'it is sent again on its own',
    );
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    unmount();
    renderWithApp(
      <RequestActions request={{ ...request, status: 'REJECTED' }} operator={operator} />,
    );
    expect(screen.getByText('This request no longer awaits approval.')).toBeVisible();
  });

  it('rejects only with a reason, and shows the server refusal with its code', async () => {
    server.route('POST', '/bff/withdrawal-requests/wr_1/reject', () =>
      envelope('REQUEST_NOT_PENDING', 409, 'bff_req_9'),
    );
    renderWithApp(
      <RequestActions request={request} operator={{ username: 'admin', role: 'admin' }} />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Reject…' }));
    const submit = screen.getByRole('button', { name: 'Reject request' });
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('Reason for rejecting'), 'unknown beneficiary');
    await user.click(submit);
    await waitFor(() => {
      expect(screen.getByRole('alert')).toHaveTextContent('REQUEST_NOT_PENDING');
    });
    expect(server.requests.at(-1)?.body).toEqual({ reason: 'unknown beneficiary' });
  });

  it('an approval the service is slow to answer says so, and cannot be sent twice', async () => {
    const { handler, release: answer } = heldReply({ body: { ...request, status: 'APPROVED' } });
    server.route('POST', '/bff/withdrawal-requests/wr_1/approve', handler);
    renderWithApp(
      <RequestActions request={request} operator={{ username: 'admin', role: 'admin' }} />,
    );
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
      const approving = await screen.findByRole('button', { name: 'Approving…' });
      expect(approving).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Reject…' })).toBeDisabled();
      expect(screen.queryByText(/still waiting/i)).not.toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(SLOW_ANSWER_MS);
      expect(
        await screen.findByText('Still waiting for the settlement service…'),
      ).toBeInTheDocument();
      answer();
      await waitFor(() => {
        expect(screen.queryByText(/still waiting/i)).not.toBeInTheDocument();
      });
      expect(server.requests.filter((r) => r.path.endsWith('/approve'))).toHaveLength(1);
    } finally {
      answer();
      vi.useRealTimers();
    }
  });
});

describe('governance helpers', () => {
  it('counts in the inbox only what this operator may approve', () => {
    const others = [
      request,
      { ...request, id: 'wr_2', requester: 'admin' },
      {
        ...request,
        id: 'wr_3',
        approvals: [{ operator: 'admin', role: 'admin', at: '2026-01-01T00:00:00Z' }],
      },
      { ...request, id: 'wr_4', status: 'SUBMITTED' as const },
    ];
    expect(
      awaitingMyApproval(others, { username: 'admin', role: 'admin' }).map((r) => r.id),
    ).toEqual(['wr_1']);
    expect(awaitingMyApproval(others, { username: 'treasury', role: 'treasury' })).toEqual([]);
  });

  it('says what the policy will do in one sentence', () => {
    expect(decisionSummary(request.decision)).toBe(
      'Needs 1 approval from admin (rule "External").',
    );
    expect(
      decisionSummary({ ...request.decision, action: 'BLOCK', rule: null, approvals: null }),
    ).toBe('Blocked: no rule matches (default deny).');
  });
});
