import { OperatorListSchema, PasskeyListSchema } from '@settlement/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, sessionFor } from '../../../test/render';
import { screenIs } from '../../../test/screen-width';
import { startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { OperatorsPage } from './operators-page';

const operators = OperatorListSchema.parse({
  items: [
    {
      username: 'admin',
      role: 'admin',
      isDisabled: false,
      mustChangePassword: false,
      passkeys: 1,
      createdAt: '2026-11-01T08:00:00.000Z',
      lastSignInAt: '2026-11-25T07:00:00.000Z',
    },
    {
      username: 'treasury',
      role: 'treasury',
      isDisabled: false,
      mustChangePassword: false,
      passkeys: 2,
      createdAt: '2026-11-01T08:00:00.000Z',
      lastSignInAt: '2026-11-24T09:00:00.000Z',
    },
    {
      username: 'support',
      role: 'support',
      isDisabled: true,
      mustChangePassword: true,
      passkeys: 0,
      createdAt: '2026-11-01T08:00:00.000Z',
      lastSignInAt: null,
    },
  ],
});
const treasuryPasskeys = PasskeyListSchema.parse({
  items: [
    {
      id: 'pk-1',
      name: 'Work laptop',
      createdAt: '2026-11-02T08:00:00.000Z',
      lastUsedAt: '2026-11-24T09:00:00.000Z',
      isBackedUp: true,
    },
    {
      id: 'pk-2',
      name: 'Phone',
      createdAt: '2026-11-03T08:00:00.000Z',
      lastUsedAt: null,
      isBackedUp: true,
    },
  ],
  requirePasskeys: false,
});

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/operators', () => ({ body: operators }));
  server.route('GET', '/bff/operators/treasury/passkeys', () => ({ body: treasuryPasskeys }));
  server.route('PATCH', '/bff/operators/treasury', () => ({
    body: { ...operators.items[1], isDisabled: true },
  }));
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});
afterEach(() => {
  vi.restoreAllMocks();
});

const renderPage = () =>
  renderWithApp(<OperatorsPage />, { path: '/operators', session: sessionFor('admin') });

/** The value of a card's field, found by its term. */
const field = (card: HTMLElement, term: string) =>
  within(card).getByText(term).nextElementSibling as HTMLElement;

describe('the operators list', () => {
  it('is a table on a wide screen, and no list', async () => {
    screenIs('desktop');
    renderPage();
    const table = await screen.findByRole('table', { name: 'Operators' });
    expect(within(table).getAllByRole('row')).toHaveLength(operators.items.length + 1);
    expect(
      within(table).getByRole('button', { name: 'Reset password of treasury' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Operators' })).not.toBeInTheDocument();
  });

  it('stacks each operator as a card on a phone, its role select labelled and its buttons full width', async () => {
    screenIs('phone');
    const user = userEvent.setup();
    renderPage();
    const list = await screen.findByRole('list', { name: 'Operators' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(operators.items.length);
    const [self, treasury, support] = cards as [HTMLElement, HTMLElement, HTMLElement];

    expect(within(self).getByText('You')).toBeInTheDocument();
    expect(within(self).queryByRole('button', { name: /^(Disable|Enable) / })).toBeNull();
    expect(within(support).getByText('Disabled')).toBeInTheDocument();
    expect(within(support).getByText('One-time password')).toBeInTheDocument();
    expect(field(support, 'Last sign-in')).toHaveTextContent('Never');
    expect(within(support).getByRole('button', { name: 'Enable support' })).toBeInTheDocument();

    const card = within(treasury);
    expect(
      within(field(treasury, 'Role')).getByRole('combobox', { name: 'Role of treasury' }),
    ).toHaveValue('treasury');
    expect(field(treasury, 'Last sign-in').querySelector('time')).toHaveAttribute(
      'dateTime',
      '2026-11-24T09:00:00.000Z',
    );
    expect(card.getByRole('link', { name: 'Sessions' })).toHaveAttribute(
      'href',
      '/sessions?username=treasury',
    );
    for (const name of ['Reset password of treasury', 'Disable treasury']) {
      expect(card.getByRole('button', { name })).toHaveClass('w-full');
    }

    await user.click(card.getByRole('button', { name: 'Disable treasury' }));
    await waitFor(() => {
      expect(server.requests.find((r) => r.method === 'PATCH')?.body).toEqual({ disabled: true });
    });
  });

  it("opens an operator's passkeys inside their card on a phone, each with its Remove button", async () => {
    screenIs('phone');
    const user = userEvent.setup();
    renderPage();
    const list = await screen.findByRole('list', { name: 'Operators' });
    const toggle = within(list).getByRole('button', { name: '2 passkeys' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const remove = await within(list).findByRole('button', { name: 'Remove passkey Work laptop' });
    expect(remove).toHaveClass('w-full');
    expect(within(list).getByRole('button', { name: 'Remove passkey Phone' })).toBeInTheDocument();
  });
});
