import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { CreateWalletForm } from './create-wallet-dialog';
import type { CreateWalletProps } from './create-wallet-dialog';

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
});
afterAll(() => server.close());

const wallet = {
  id: 'wal_1',
  chain: 'tron:nile',
  accountId: 'acc_1',
  accountName: 'Merchant A',
  address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  status: 'ACTIVE',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

function props(
  overrides: Partial<CreateWalletProps> = {},
): CreateWalletProps & { onCancel: () => void } {
  return {
    accounts: [{ value: 'acc_1', label: 'Merchant A' }],
    isLoadingAccounts: false,
    onAccountSearch: vi.fn(),
    defaultAccountId: 'acc_1',
    chains: [{ value: 'tron:nile', label: 'tron:nile' }],
    defaultChain: null,
    readinessOf: () => ({ isReady: true, reason: null }),
    onCreated: vi.fn(),
    onCancel: vi.fn(),
    ...overrides,
  };
}

describe('CreateWalletForm', () => {
  it('proposes the default chain it is given, even when another ready chain is listed first', async () => {
    const user = userEvent.setup();
    renderWithApp(
      <CreateWalletForm
        {...props({
          chains: [
            { value: 'tron:mainnet', label: 'tron:mainnet' },
            { value: 'tron:nile', label: 'tron:nile (Nile testnet)' },
          ],
          defaultChain: 'tron:nile',
        })}
      />,
    );
    const chain = screen.getByLabelText('Chain', { exact: true });
    expect(chain).toHaveValue('tron:nile');
    expect(screen.getByText('Nile testnet')).toBeInTheDocument();

    await user.selectOptions(chain, 'tron:mainnet');
    expect(chain).toHaveValue('tron:mainnet');
    expect(screen.queryByText('Nile testnet')).not.toBeInTheDocument();
  });

  it('is disabled with the reason and a link to Setup until MPC is ready', () => {
    renderWithApp(
      <CreateWalletForm
        {...props({ readinessOf: () => ({ isReady: false, reason: 'The Co-Signer is offline.' }) })}
      />,
    );
    expect(screen.getByText('The Co-Signer is offline.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Setup' })).toHaveAttribute('href', '/setup');
    expect(screen.getByRole('button', { name: 'Create wallet' })).toBeDisabled();
  });

  it('retries under the same operation id, so at most one wallet is created', async () => {
    let calls = 0;
    server.route('POST', '/bff/api/v1/wallets', () => {
      calls += 1;
      return calls === 1
        ? envelope('UPSTREAM_UNAVAILABLE', 503, 'req-503')
        : { status: 201, body: wallet };
    });
    const onCreated = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<CreateWalletForm {...props({ onCreated })} />);
    await user.click(screen.getByRole('button', { name: 'Create wallet' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('It is safe to retry.');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => {
      expect(onCreated).toHaveBeenCalled();
    });
    const posts = server.requests.filter(
      (r) => r.method === 'POST' && r.path === '/bff/api/v1/wallets',
    );
    expect(posts).toHaveLength(2);
    expect(posts[0]!.headers['x-operation-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1]!.headers['x-operation-id']).toBe(posts[0]!.headers['x-operation-id']);
    expect(posts[1]!.body).toEqual({ accountId: 'acc_1', chain: 'tron:nile' });
  });

  it('PLAN_LIMIT_REACHED offers no Retry: the same request would be refused again', async () => {
    server.route('POST', '/bff/api/v1/wallets', () =>
      envelope('PLAN_LIMIT_REACHED', 403, 'req-plan'),
    );
    const user = userEvent.setup();
    renderWithApp(<CreateWalletForm {...props()} />);
    await user.click(screen.getByRole('button', { name: 'Create wallet' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('allows no more wallets');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create wallet' })).toBeDisabled();
  });
});
