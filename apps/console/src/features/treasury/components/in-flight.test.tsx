import type { Overview } from '@settlement/protocol';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { countRequests, InFlight } from './in-flight';

const nothingInFlight: Overview['inFlight'] = {
  count: 0,
  oldestCreatedAt: null,
  totals: [],
  oldest: [],
};

function renderInFlight(awaitingApproval: number | null, approvedUnsent: number | null) {
  return renderWithApp(
    <InFlight
      inFlight={nothingInFlight}
      awaitingApproval={awaitingApproval}
      approvedUnsent={approvedUnsent}
      decimalsFor={() => 6}
      now={Date.parse('2026-03-01T10:00:00.000Z')}
    />,
  );
}

describe('countRequests', () => {
  it('names one request in the singular and any other count in the plural', () => {
    expect(countRequests(1, 'approved request')).toBe('1 approved request');
    expect(countRequests(0, 'request')).toBe('0 requests');
    expect(countRequests(2, 'approved request')).toBe('2 approved requests');
  });

  it('counts exactly below the list limit and says "200 or more" from it on (a full list may hold more)', () => {
    expect(countRequests(199, 'request')).toBe('199 requests');
    expect(countRequests(200, 'request')).toBe('200 or more requests');
    expect(countRequests(250, 'approved request')).toBe('200 or more approved requests');
  });
});

describe('InFlight', () => {
  it('with approved requests not yet sent, links the count to the approved requests', () => {
    renderInFlight(0, 2);
    expect(screen.getByRole('link', { name: '2 approved requests being sent' })).toHaveAttribute(
      'href',
      '/approvals?view=APPROVED',
    );
  });

  it('with one approved request not yet sent, says it in the singular', () => {
    renderInFlight(0, 1);
    expect(screen.getByRole('link', { name: '1 approved request being sent' })).toBeInTheDocument();
  });

  it('with no approved request, or the count unknown, adds no line about them', () => {
    const { unmount } = renderInFlight(3, 0);
    expect(screen.queryByRole('link', { name: /being sent/ })).not.toBeInTheDocument();
    unmount();
    renderInFlight(null, null);
    expect(screen.getByText('Approvals: unknown')).toBeInTheDocument();
    expect(screen.queryByText(/being sent/)).not.toBeInTheDocument();
  });

  it('links the requests awaiting approval to every request in that status, not to my inbox', () => {
    renderInFlight(3, 0);
    expect(screen.getByRole('link', { name: '3 requests awaiting approval' })).toHaveAttribute(
      'href',
      '/approvals?view=AWAITING_APPROVAL',
    );
  });

  it('with full lists of 200, says "200 or more" on both lines', () => {
    renderInFlight(200, 200);
    expect(
      screen.getByRole('link', { name: '200 or more requests awaiting approval' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: '200 or more approved requests being sent' }),
    ).toBeInTheDocument();
  });
});
