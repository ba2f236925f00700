import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { SimulateDepositForm, type DepositAsset } from './simulate-deposit-form';

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('POST', '/bff/sandbox/deposits', () => ({ status: 201, body: {} }));
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const CATALOG: DepositAsset[] = [
  { asset: 'TRX', decimals: 6 },
  { asset: 'USDT', decimals: 6 },
];
/** A wallet opened on a cold page: the form mounts before the asset catalog has loaded. */
function ColdPage() {
  const [assets, setAssets] = useState<DepositAsset[]>([]);
  useEffect(() => {
    const timer = setTimeout(() => {
      setAssets(CATALOG);
    }, 0);
    return () => {
      clearTimeout(timer);
    };
  }, []);
  return <SimulateDepositForm walletId="w_1" assets={assets} />;
}

const deposits = () => server.requests.filter((r) => r.method === 'POST').map((r) => r.body);

describe('SimulateDepositForm', () => {
  it('sends the exact atomic amount of the asset shown, when the catalog arrives after the form', async () => {
    const user = userEvent.setup();
    renderWithApp(<ColdPage />);
    await waitFor(() => {
      expect(screen.getByLabelText('Deposit asset')).toHaveValue('TRX');
    });

    await user.type(screen.getByLabelText('Deposit amount'), '1250.5');
    expect(screen.getByText('1250500000 atomic units')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Simulate deposit' }));
    await waitFor(() => {
      expect(deposits()).toEqual([{ walletId: 'w_1', asset: 'TRX', amountAtomic: '1250500000' }]);
    });
  });

  it('keeps the asset the operator picked, and refuses an amount finer than its decimals', async () => {
    const user = userEvent.setup();
    renderWithApp(<SimulateDepositForm walletId="w_1" assets={CATALOG} />);
    await user.selectOptions(screen.getByLabelText('Deposit asset'), 'USDT');
    await user.type(screen.getByLabelText('Deposit amount'), '0.0000001');
    expect(screen.getByRole('button', { name: 'Simulate deposit' })).toBeDisabled();
    await user.clear(screen.getByLabelText('Deposit amount'));
    await user.type(screen.getByLabelText('Deposit amount'), '2');
    await user.click(screen.getByRole('button', { name: 'Simulate deposit' }));
    await waitFor(() => {
      expect(deposits()).toEqual([{ walletId: 'w_1', asset: 'USDT', amountAtomic: '2000000' }]);
    });
  });
});
