import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { startApiTestServer, type TestServer } from '../../../test/test-server';
import { externalNeedsAdmin } from '../governance-fixtures';
import { DryRunPanel } from './dry-run-panel';

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
});
afterAll(() => server.close());

const TO = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const wallets = [
  {
    id: 'w_ops',
    name: 'Operations hot wallet',
    address: 'TDHHmYT4BeuUDw4JQPMFbTayhNrSJtLxWo',
    chain: 'tron:nile',
  },
  {
    id: 'w_payroll',
    name: 'Payroll',
    address: 'TXyz9Vb1sGQ3b5q3dvH1x2Zb8mJ6Qz1a2b',
    chain: 'tron:nile',
  },
];

describe('the policy dry run', () => {
  it('picks the source among the wallets by name and address, and asks with its id and an exact amount', async () => {
    server.route('POST', '/bff/policy/dry-run', () => ({ body: externalNeedsAdmin }));
    renderWithApp(
      <DryRunPanel
        assets={['TRX', 'USDT']}
        wallets={wallets}
        isWalletListPartial={false}
        decimalsFor={() => 6}
      />,
    );
    const user = userEvent.setup();
    const picker = screen.getByRole('combobox', { name: 'From wallet' });
    expect(within(picker).getByRole('option', { name: /^Payroll — TXyz9V/ })).toBeInTheDocument();
    await user.selectOptions(picker, 'w_payroll');
    await user.type(screen.getByRole('textbox', { name: 'Destination address' }), TO);
    await user.type(screen.getByRole('textbox', { name: 'Amount (TRX)' }), '1.5');
    await user.click(screen.getByRole('button', { name: 'Run the policy' }));
    expect(await screen.findByRole('region', { name: 'Dry-run result' })).toHaveTextContent(
      'External',
    );
    expect(server.requests.at(-1)?.body).toEqual({
      walletId: 'w_payroll',
      asset: 'TRX',
      toAddress: TO,
      amountAtomic: '1500000',
    });
  });

  it('tests the asset the select shows when the catalog arrives after the panel', async () => {
    server.route('POST', '/bff/policy/dry-run', () => ({ body: externalNeedsAdmin }));
    // A catalog whose first asset is not TRX, loaded after the panel mounted (a cold page).
    function ColdPage() {
      const [assets, setAssets] = useState<string[]>([]);
      useEffect(() => {
        const timer = setTimeout(() => {
          setAssets(['USDT', 'TRX']);
        }, 0);
        return () => {
          clearTimeout(timer);
        };
      }, []);
      return (
        <DryRunPanel
          assets={assets}
          wallets={wallets}
          isWalletListPartial={false}
          decimalsFor={() => 6}
        />
      );
    }
    renderWithApp(<ColdPage />);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'From wallet' }), 'w_ops');
    expect(screen.getByRole('combobox', { name: 'Asset' })).toHaveValue('USDT');
    await user.type(screen.getByRole('textbox', { name: 'Destination address' }), TO);
    await user.type(screen.getByRole('textbox', { name: 'Amount (USDT)' }), '2');
    await user.click(screen.getByRole('button', { name: 'Run the policy' }));
    await screen.findByRole('region', { name: 'Dry-run result' });
    expect(server.requests.at(-1)?.body).toMatchObject({ asset: 'USDT', amountAtomic: '2000000' });
  });

  it('says when the picker lists only the first of the ACTIVE wallets', () => {
    renderWithApp(
      <DryRunPanel assets={['TRX']} wallets={wallets} isWalletListPartial decimalsFor={() => 6} />,
    );
    expect(screen.getByRole('combobox', { name: 'From wallet' })).toHaveAccessibleDescription(
      'Only the first 2 ACTIVE wallets are listed.',
    );
  });

  it('says so when there is no wallet to start from', () => {
    renderWithApp(
      <DryRunPanel
        assets={['TRX']}
        wallets={[]}
        isWalletListPartial={false}
        decimalsFor={() => 6}
      />,
    );
    expect(screen.getByRole('combobox', { name: 'From wallet' })).toHaveDisplayValue(
      'No ACTIVE wallet',
    );
  });
});
