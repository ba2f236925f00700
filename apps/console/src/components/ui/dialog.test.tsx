import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './dialog';

function Opener() {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <button type="button">Something else</button>
      <button
        type="button"
        onClick={() => {
          setIsOpen(true);
        }}
      >
        Open details
      </button>
      <Dialog isOpen={isOpen} onOpenChange={setIsOpen} title="Details">
        <button
          type="button"
          onClick={() => {
            setIsOpen(false);
          }}
        >
          Done
        </button>
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it.each([
    ['Escape', async (user: ReturnType<typeof userEvent.setup>) => user.keyboard('{Escape}')],
    [
      'its close button',
      async (user: ReturnType<typeof userEvent.setup>) =>
        user.click(screen.getByRole('button', { name: 'Close' })),
    ],
    [
      'a button of its own',
      async (user: ReturnType<typeof userEvent.setup>) =>
        user.click(screen.getByRole('button', { name: 'Done' })),
    ],
  ])('closed by %s, returns focus to the button that opened it', async (_how, close) => {
    const user = userEvent.setup();
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Open details' });
    await user.click(opener);
    expect(await screen.findByRole('dialog', { name: 'Details' })).toBeInTheDocument();
    expect(opener).not.toHaveFocus();

    await close(user);

    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(opener).toHaveFocus();
  });
});
