import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withdrawalRequestFixture } from '../../../test/governance-fixtures';
import { renderWithApp, sessionFor } from '../../../test/render';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { useOpenRequests } from './open-requests';
import { withdrawalRequestListQuery } from './withdrawal-requests';

/** What the hook gives, as text: a caller that reads only `open` sees this. */
function Probe() {
  const { open, isError } = useOpenRequests();
  return (
    <p data-testid="probe">
      {open ? `open ${String(open.items.length)}` : 'open none'}
      {isError ? ', error' : ''}
    </p>
  );
}

let server: TestServer;
let isFailing: boolean;

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/withdrawal-requests', (request) => {
    if (isFailing) return envelope('UPSTREAM_UNAVAILABLE', 503, 'bff_req_1');
    const status = new URL(request.path, server.origin).searchParams.get('status');
    return {
      body: {
        items:
          status === 'APPROVED'
            ? [withdrawalRequestFixture({ id: 'wr_sending', status: 'APPROVED' })]
            : [withdrawalRequestFixture({ id: 'wr_waiting' })],
      },
    };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  isFailing = false;
});

describe('useOpenRequests', () => {
  it('gives no sum once a refresh of a list fails, not the old copy a newer request may be missing from', async () => {
    const { queryClient } = renderWithApp(<Probe />, { session: sessionFor('treasury') });
    await waitFor(() => {
      expect(screen.getByTestId('probe')).toHaveTextContent('open 2');
    });
    isFailing = true;
    await queryClient.refetchQueries({
      queryKey: withdrawalRequestListQuery('AWAITING_APPROVAL').queryKey,
    });
    await waitFor(() => {
      expect(screen.getByTestId('probe')).toHaveTextContent('open none, error');
    });
  });
});
