import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { CoSignerSwitch } from './co-signer-switch';

let server: TestServer;
let isOnline = true;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('PUT', '/bff/sandbox/co-signer', (request) => {
    isOnline = (request.body as { online: boolean }).online;
    return { body: { online: isOnline } };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

/** The switch over a status the test server holds, refetched after each switch. */
function Harness() {
  const [shown, setShown] = useState(isOnline);
  return (
    <CoSignerSwitch
      isOnline={shown}
      isKnown
      onSwitched={() => {
        setShown(isOnline);
        return Promise.resolve();
      }}
    />
  );
}

const puts = () => server.requests.filter((r) => r.method === 'PUT').map((r) => r.body);

describe('CoSignerSwitch', () => {
  it('asks before stopping; keeping it running sends nothing and returns focus to the switch', async () => {
    isOnline = true;
    const user = userEvent.setup();
    renderWithApp(<Harness />);
    const stop = screen.getByRole('button', { name: 'Stop simulated Co-Signer' });
    await user.click(stop);
    const dialog = await screen.findByRole('dialog', { name: 'Stop the simulated Co-Signer?' });
    expect(dialog).toHaveTextContent('withdrawals are refused');

    await user.click(screen.getByRole('button', { name: 'Keep it running' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(stop).toHaveFocus();
    expect(puts()).toEqual([]);
  });

  it('stops once confirmed, then offers Start (which needs no confirmation)', async () => {
    isOnline = true;
    const user = userEvent.setup();
    renderWithApp(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Stop simulated Co-Signer' }));
    await user.click(await screen.findByRole('button', { name: 'Stop Co-Signer' }));

    const start = await screen.findByRole('button', { name: 'Start simulated Co-Signer' });
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(start).toHaveFocus();
    expect(puts()).toEqual([{ online: false }]);

    await user.click(start);
    await screen.findByRole('button', { name: 'Stop simulated Co-Signer' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(puts()).toEqual([{ online: false }, { online: true }]);
  });
});
