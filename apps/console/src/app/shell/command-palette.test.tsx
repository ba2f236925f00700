import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { CommandPalette } from './command-palette';

const PAGES = [
  { to: '/', label: 'Overview' },
  { to: '/wallets', label: 'Wallets' },
  { to: '/audit', label: 'Audit log' },
  { to: '/timeline', label: 'Timeline' },
];

function renderPalette() {
  return renderWithApp(
    <>
      <button type="button">Somewhere on the page</button>
      <CommandPalette pages={PAGES} />
    </>,
    { path: '/transactions?status=PENDING' },
  );
}

const options = () =>
  within(screen.getByRole('listbox', { name: 'Choices' }))
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('CommandPalette', () => {
  it('Ctrl+K opens it; a pasted id (blanks and all) lands on its timeline', async () => {
    const user = userEvent.setup();
    const { router } = renderPalette();
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Go to' });
    const field = within(dialog).getByRole('combobox', { name: 'Page or id' });
    expect(field).toHaveFocus();

    await user.paste('  corr-7f3a\u200B\n');
    expect(options()).toEqual(['Open the timeline of corr-7f3a']);
    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/timeline');
    expect(router.state.location.search).toBe('?q=corr-7f3a');
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
  });

  it('Cmd+K opens it too; arrow keys move through pages, Enter goes to the active one', async () => {
    const user = userEvent.setup();
    const { router } = renderPalette();
    await user.keyboard('{Meta>}k{/Meta}');
    const field = await screen.findByRole('combobox', { name: 'Page or id' });
    expect(options()).toEqual([
      'Go to Overview',
      'Go to Wallets',
      'Go to Audit log',
      'Go to Timeline',
    ]);
    const selected = () => screen.getByRole('option', { selected: true });
    expect(selected()).toHaveTextContent('Go to Overview');
    expect(field).toHaveAttribute('aria-activedescendant', selected().id);

    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(selected()).toHaveTextContent('Go to Audit log');
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(selected()).toHaveTextContent('Go to Timeline');
    expect(field).toHaveAttribute('aria-activedescendant', selected().id);

    await user.type(field, 'wal');
    expect(options()).toEqual(['Go to Wallets', 'Open the timeline of wal']);
    expect(selected()).toHaveTextContent('Go to Wallets');
    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/wallets');
  });

  it('Escape closes it and returns focus to where it was opened from; it opens empty again', async () => {
    const user = userEvent.setup();
    renderPalette();
    const opener = screen.getByRole('button', { name: 'Somewhere on the page' });
    opener.focus();
    await user.keyboard('{Control>}k{/Control}');
    await user.type(await screen.findByRole('combobox', { name: 'Page or id' }), 'tx_1');
    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(opener).toHaveFocus();

    await user.click(screen.getByRole('button', { name: /Go to…/ }));
    expect(await screen.findByRole('combobox', { name: 'Page or id' })).toHaveValue('');
  });

  it('picks a choice with the mouse', async () => {
    const user = userEvent.setup();
    const { router } = renderPalette();
    await user.click(screen.getByRole('button', { name: /Go to…/ }));
    await user.click(await screen.findByRole('option', { name: 'Go to Audit log' }));
    expect(router.state.location.pathname).toBe('/audit');
  });
});
